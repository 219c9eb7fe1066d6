package dev.cortex.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.tool.OfflineTools;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.server.client.AgentServerClient;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The web tools' arguments as a client sends them (through {@link ToolInvoker}): every bound is
 * refused {@code INVALID_ARGUMENT} before anything reaches the agent server. No server runs here: a
 * call that passed the checks fails {@code UNAVAILABLE}, which is how the tests tell the two apart.
 */
class WebToolsTest {
  @TempDir Path dir;
  OfflineTools tools;

  @BeforeEach
  void setUp() {
    CortexHome home = OfflineTools.home(dir);
    AgentServerClient client =
        new AgentServerClient(Map.of("WEBHOOK_PORT", "9", "CORTEX_WEBHOOK_TOKEN", "t"), home);
    tools = new OfflineTools(WebGroup.create(client).tools(), home);
  }

  private String code(String tool, String arguments) {
    return tools.code(tool, arguments);
  }

  private static String q(String s) {
    return OfflineTools.q(s);
  }

  private static String text(int n) {
    return "x".repeat(n);
  }

  @Test
  void create_servesTheFourToolsUnderTheWebKey() {
    assertThat(WebGroup.DESCRIPTOR.serverKey()).isEqualTo("cortex-web");
    assertThat(WebGroup.DESCRIPTOR.configFile()).isEqualTo("mcp-config-web.json");
    assertThat(WebGroup.create(new AgentServerClient(Map.of(), new CortexHome(dir, dir))).tools())
        .extracting(ToolSpec::name)
        .containsExactly("send_file", "send_view", "send_decision", "board_open");
  }

  @Test
  void sendFile_withinBounds_reachesTheServer() {
    assertThat(code("send_file", "{\"file_path\":\"a.txt\"}")).isEqualTo("UNAVAILABLE");
    String twenty =
        "{\"files\":["
            + String.join(",", Collections.nCopies(20, "{\"file_path\":\"a.txt\"}"))
            + "],\"caption\":"
            + q(text(2000))
            + "}";
    assertThat(code("send_file", twenty)).isEqualTo("UNAVAILABLE");
  }

  @Test
  void sendFile_eachBrokenBound_isInvalidArgument() {
    assertThat(code("send_file", "{}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_file", "{\"file_path\":\"a\",\"files\":[{\"file_path\":\"b\"}]}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_file", "{\"files\":[]}")).isEqualTo("INVALID_ARGUMENT");
    String twentyOne =
        "{\"files\":["
            + String.join(",", Collections.nCopies(21, "{\"file_path\":\"a.txt\"}"))
            + "]}";
    assertThat(code("send_file", twentyOne)).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_file", "{\"file_path\":\"\"}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_file", "{\"file_path\":\"a\",\"caption\":" + q(text(2001)) + "}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_file", "{\"file_path\":\"a\",\"file_name\":\"../b\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_file", "{\"file_path\":\"a\",\"device\":\"\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(
            code("send_file", "{\"files\":[{\"file_path\":\"a\"}],\"file_name\":\"shared.txt\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_file", "{\"file_path\":\"a\",\"colour\":\"red\"}"))
        .isEqualTo("INVALID_ARGUMENT");
  }

  @Test
  void sendView_withinBounds_reachesTheServer() {
    assertThat(code("send_view", "{\"title\":\"T\",\"html\":\"<p>hi</p>\"}"))
        .isEqualTo("UNAVAILABLE");
    assertThat(
            code(
                "send_view",
                "{\"title\":"
                    + q(text(200))
                    + ",\"file_path\":\"v.html\",\"height\":160,\"width\":\"full\"}"))
        .isEqualTo("UNAVAILABLE");
    assertThat(
            code(
                "send_view",
                "{\"title\":\"T\",\"html\":" + q(text(256 * 1024)) + ",\"height\":900}"))
        .isEqualTo("UNAVAILABLE");
  }

  @Test
  void sendView_eachBrokenBound_isInvalidArgument() {
    assertThat(code("send_view", "{\"html\":\"<p/>\"}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_view", "{\"title\":\"\",\"html\":\"<p/>\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_view", "{\"title\":" + q(text(201)) + ",\"html\":\"<p/>\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_view", "{\"title\":\"T\"}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_view", "{\"title\":\"T\",\"html\":\"<p/>\",\"file_path\":\"v.html\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    // 256 KiB of UTF-8 bytes: 'é' is two bytes.
    assertThat(
            code("send_view", "{\"title\":\"T\",\"html\":" + q("é".repeat(128 * 1024 + 1)) + "}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_view", "{\"title\":\"T\",\"html\":\"<p/>\",\"height\":159}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_view", "{\"title\":\"T\",\"html\":\"<p/>\",\"height\":901}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_view", "{\"title\":\"T\",\"html\":\"<p/>\",\"width\":\"huge\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(
            code(
                "send_view",
                "{\"title\":\"T\",\"html\":\"<p/>\",\"caption\":" + q(text(2001)) + "}"))
        .isEqualTo("INVALID_ARGUMENT");
  }

  private static String decision(String title, String body) {
    return "{\"title\":"
        + q(title)
        + ",\"decision\":"
        + q(body)
        + ",\"context\":"
        + q(body)
        + ",\"reasoning\":"
        + q(body)
        + "}";
  }

  @Test
  void sendDecision_withinBounds_reachesTheServer() {
    String ten =
        "{\"decisions\":["
            + String.join(",", Collections.nCopies(10, decision(text(120), text(1000))))
            + "]}";
    assertThat(code("send_decision", ten)).isEqualTo("UNAVAILABLE");
  }

  @Test
  void sendDecision_eachBrokenBound_isInvalidArgument() {
    assertThat(code("send_decision", "{\"decisions\":[]}")).isEqualTo("INVALID_ARGUMENT");
    String eleven =
        "{\"decisions\":[" + String.join(",", Collections.nCopies(11, decision("t", "b"))) + "]}";
    assertThat(code("send_decision", eleven)).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_decision", "{\"decisions\":[" + decision("", "b") + "]}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_decision", "{\"decisions\":[" + decision(text(121), "b") + "]}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_decision", "{\"decisions\":[" + decision("t", "") + "]}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("send_decision", "{\"decisions\":[" + decision("t", text(1001)) + "]}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(
            code(
                "send_decision",
                "{\"decisions\":[{\"title\":\"t\",\"decision\":\"d\",\"context\":\"c\"}]}"))
        .isEqualTo("INVALID_ARGUMENT");
  }

  @Test
  void boardOpen_exactlyOneOfTitleAndBoard() {
    assertThat(code("board_open", "{\"title\":" + q(text(120)) + "}")).isEqualTo("UNAVAILABLE");
    assertThat(code("board_open", "{\"board\":\"brd_0123456789ab\"}")).isEqualTo("UNAVAILABLE");
    assertThat(code("board_open", "{}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("board_open", "{\"title\":\"a\",\"board\":\"b\"}"))
        .isEqualTo("INVALID_ARGUMENT");
    assertThat(code("board_open", "{\"title\":\"\"}")).isEqualTo("INVALID_ARGUMENT");
    assertThat(code("board_open", "{\"title\":" + q(text(121)) + "}"))
        .isEqualTo("INVALID_ARGUMENT");
  }
}
