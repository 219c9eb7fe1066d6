package dev.cortex.server.plugins.link;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ToolPinsTest {
  @Test
  void aNewToolOrAChangedDescriptionIsAChange_aToolGoneIsNot() {
    Map<String, String> pins =
        ToolPins.of(
            List.of(new ToolPins.Tool("read", "Reads a file."), new ToolPins.Tool("list", null)));
    assertThat(ToolPins.change(pins, List.of(new ToolPins.Tool("read", "Reads a file."))))
        .isEmpty();
    assertThat(ToolPins.change(pins, List.of(new ToolPins.Tool("list", null)))).isEmpty();
    assertThat(ToolPins.change(pins, List.of(new ToolPins.Tool("read", "Reads any file."))))
        .contains("the description of its tool read changed");
    assertThat(ToolPins.change(pins, List.of(new ToolPins.Tool("list", "Now described."))))
        .contains("the description of its tool list changed");
    assertThat(ToolPins.change(pins, List.of(new ToolPins.Tool("send", "Sends."))))
        .contains("it offers a tool that was not confirmed (send)");
    assertThat(ToolPins.change(pins, List.of(new ToolPins.Tool("<b>\nx", "x"))))
        .contains("it offers a tool that was not confirmed (unnamed)");
  }

  @Test
  void aToolTwice_orAChangedTitleOrSchema_isAChange_butTheOrderOfASchemasFieldsIsNot() {
    var json = dev.cortex.base.Json.mapper();
    ToolPins.Tool tool =
        new ToolPins.Tool(
            "find", "Finds.", "Find", json.readTree("{\"type\":\"object\",\"required\":[\"q\"]}"));
    Map<String, String> pins = ToolPins.of(List.of(tool));
    assertThat(
            ToolPins.change(
                pins,
                List.of(
                    new ToolPins.Tool(
                        "find",
                        "Finds.",
                        "Find",
                        json.readTree("{\"required\":[\"q\"],\"type\":\"object\"}")))))
        .isEmpty();
    assertThat(ToolPins.change(pins, List.of(tool, tool))).contains("it lists the tool find twice");
    assertThat(
            ToolPins.change(
                pins, List.of(new ToolPins.Tool("find", "Finds.", "Delete", tool.inputSchema()))))
        .isPresent();
    assertThat(
            ToolPins.change(
                pins,
                List.of(
                    new ToolPins.Tool(
                        "find", "Finds.", "Find", json.readTree("{\"type\":\"object\"}")))))
        .isPresent();
  }

  @Test
  void eventStreams_areReadAsEventsWithTheirJoinedData_andACutOffEventIsDropped() throws Exception {
    String stream =
        ": a comment\n"
            + "event: endpoint\ndata: /message?session=1\n\n"
            + "data: {\"a\":\n"
            + "data: 1}\n\n"
            + "event:message\r\ndata:{\"b\":2}\r\n\r\n"
            + "data: last without a blank line";
    List<String> seen = new ArrayList<>();
    Remote.events(
        new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)),
        (event, data) -> seen.add(event + "=" + data));
    List<String> first = new ArrayList<>();
    Remote.events(
        new ByteArrayInputStream(stream.getBytes(StandardCharsets.UTF_8)),
        (event, data) -> !first.add(event));
    assertThat(first).containsExactly("endpoint");
    assertThat(seen)
        .containsExactly("endpoint=/message?session=1", "message={\"a\":\n1}", "message={\"b\":2}");
  }
}
