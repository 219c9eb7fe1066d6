package dev.cortex.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.webhook.ErrorBody;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireJsonTest {
  @Test
  void write_tagsTheTypeAndUsesSnakeCase() {
    String text =
        WireJson.write(
            new HubMessage.Hello(1, "gpu-box", "linux", "amd64", "gpu", "1.0", List.of("bash")));

    assertThat(text)
        .startsWith("{\"type\":\"hello\"")
        .contains("\"device\":\"gpu-box\"")
        .contains("\"capabilities\":[\"bash\"]");
  }

  @Test
  void read_everyMessage_roundTrips() {
    List<HubMessage> messages =
        List.of(
            new HubMessage.Hello(1, "a", "linux", "x", "h", "v", List.of("bash", "read")),
            new HubMessage.Welcome(1, "v", 5),
            new HubMessage.Heartbeat(42),
            new HubMessage.Command(
                "c1", "bash", WireJson.tree(new Actions.Bash("true", 120, null, false)), 1000),
            new HubMessage.Output("c1", "stdout", "hi\n"),
            new HubMessage.Result("c1", WireJson.tree(java.util.Map.of("exit_code", 0)), null),
            new HubMessage.Result("c1", null, new ErrorBody("NOT_FOUND", "no such file")),
            new HubMessage.Cancel("c1", "the caller cancelled"));

    for (HubMessage message : messages) {
      assertThat(WireJson.read(WireJson.write(message))).isEqualTo(message);
    }
  }

  @Test
  void read_unknownFields_areIgnored_unknownTypesRefused() {
    assertThat(WireJson.read("{\"type\":\"heartbeat\",\"sent_at_millis\":7,\"later\":true}"))
        .isEqualTo(new HubMessage.Heartbeat(7));
    assertThatThrownBy(() -> WireJson.read("{\"type\":\"launch\"}"))
        .isInstanceOf(WireJson.UnknownType.class)
        .hasMessageContaining("unknown message type 'launch'");
    assertThatThrownBy(() -> WireJson.read("[1]")).hasMessageContaining("not a JSON object");
    assertThatThrownBy(() -> WireJson.read("{")).hasMessageContaining("not JSON");
  }

  @Test
  void read_repliesWithoutTheirId_areMalformed() {
    for (String text :
        List.of(
            "{\"type\":\"result\",\"result\":{\"exit_code\":0}}",
            "{\"type\":\"output\",\"stream\":\"stdout\",\"data\":\"x\"}",
            "{\"type\":\"result\",\"id\":null}",
            "{\"type\":\"cancel\"}",
            "{\"type\":\"signal_ack\",\"outcome\":null}")) {
      assertThatThrownBy(() -> WireJson.read(text))
          .as(text)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageStartingWith("malformed ");
    }
  }

  @Test
  void bind_aFieldOfTheWrongType_isNamed_withoutTheMappersText() {
    assertThatThrownBy(
            () ->
                WireJson.bind(
                    WireJson.mapper().readTree("{\"pattern\":\"x\",\"head_limit\":\"ten\"}"),
                    Actions.Grep.class))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("malformed Grep: 'head_limit' is not of the expected type");
    assertThatThrownBy(() -> WireJson.bind(WireJson.mapper().readTree("[1]"), Actions.Grep.class))
        .hasMessage("malformed Grep: not an object of its fields");
  }

  @Test
  void bind_actionParams_toTheirRecords() {
    Actions.Grep grep =
        WireJson.bind(
            WireJson.mapper()
                .readTree("{\"pattern\":\"x\",\"output_mode\":\"count\",\"ignore_case\":true}"),
            Actions.Grep.class);

    assertThat(grep.pattern()).isEqualTo("x");
    assertThat(grep.outputMode()).isEqualTo("count");
    assertThat(grep.ignoreCase()).isTrue();
    assertThat(grep.headLimit()).isNull();
    assertThat(Action.of("grep").params()).isEqualTo(Actions.Grep.class);
    assertThat(Action.of("rm")).isNull();
  }
}
