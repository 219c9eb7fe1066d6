package dev.cortex.interaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.tool.OfflineTools;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolOutcome;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.server.client.AgentServerClient;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interaction tools' arguments as a client sends them (through {@link ToolInvoker}): what the
 * schemas refuse before anything reaches the agent server, and the refusal outside a session. No
 * server runs here: a call that passed the checks would fail {@code UNAVAILABLE}.
 */
class InteractionToolsTest {
  static final SessionIdentity SESSION = OfflineTools.SESSION;

  @TempDir Path dir;
  OfflineTools tools;

  @BeforeEach
  void setUp() {
    CortexHome home = OfflineTools.home(dir);
    // A port nothing listens on, and a token: the checks come first.
    AgentServerClient client =
        new AgentServerClient(Map.of("WEBHOOK_PORT", "9", "CORTEX_WEBHOOK_TOKEN", "t"), home);
    tools = new OfflineTools(InteractionGroup.create(client, Clock.systemUTC()).tools(), home);
  }

  private ToolOutcome call(String tool, String arguments, SessionIdentity session) {
    return tools.call(tool, arguments, session);
  }

  private static String code(ToolOutcome outcome) {
    return ((ToolOutcome.Failure) outcome).code();
  }

  private static String message(ToolOutcome outcome) {
    return ((ToolOutcome.Failure) outcome).message();
  }

  @Test
  void create_servesTheThreeToolsUnderTheBridgeKey() {
    assertThat(InteractionGroup.DESCRIPTOR.serverKey()).isEqualTo("cortex-interaction-bridge");
    assertThat(
            InteractionGroup.create(
                    new AgentServerClient(Map.of(), new CortexHome(dir, dir)), Clock.systemUTC())
                .tools()
                .stream()
                .map(ToolSpec::name))
        .containsExactly("cortex_ask_user", "cortex_plan_enter", "cortex_plan_exit");
  }

  @Test
  void askUser_headerLongerThan12_isInvalidArgument() {
    ToolOutcome outcome =
        call(
            "cortex_ask_user",
            "{\"questions\":[{\"question\":\"Which?\",\"header\":\"thirteen char\"}]}",
            SESSION);
    assertThat(code(outcome)).isEqualTo("INVALID_ARGUMENT");
    assertThat(message(outcome)).contains("header");
  }

  @Test
  void askUser_oneOption_orFiveQuestions_orAnUnknownLevel_isInvalidArgument() {
    assertThat(
            code(
                call(
                    "cortex_ask_user",
                    "{\"questions\":[{\"question\":\"Q?\",\"options\":[{\"label\":\"a\"}]}]}",
                    SESSION)))
        .isEqualTo("INVALID_ARGUMENT");
    String five =
        "{\"questions\":["
            + String.join(",", java.util.Collections.nCopies(5, "{\"question\":\"Q?\"}"))
            + "]}";
    assertThat(code(call("cortex_ask_user", five, SESSION))).isEqualTo("INVALID_ARGUMENT");
    assertThat(
            code(
                call(
                    "cortex_ask_user",
                    "{\"questions\":[{\"question\":\"Q?\"}],\"level\":\"loud\"}",
                    SESSION)))
        .isEqualTo("INVALID_ARGUMENT");
  }

  @Test
  void askUser_twoOptionsWithOneLabel_isInvalidArgumentNamingIt() {
    ToolOutcome outcome =
        call(
            "cortex_ask_user",
            "{\"questions\":[{\"question\":\"Q?\",\"options\":[{\"label\":\"a\"},{\"label\":\"a\"}]}]}",
            SESSION);
    assertThat(code(outcome)).isEqualTo("INVALID_ARGUMENT");
    assertThat(message(outcome)).contains("'a'");
  }

  @Test
  void askUser_warnLevel_isTakenAndReachesForTheServer() {
    ToolOutcome outcome =
        call(
            "cortex_ask_user",
            "{\"questions\":[{\"question\":\"Q?\",\"multiSelect\":true,"
                + "\"options\":[{\"label\":\"a\"},{\"label\":\"b\"}]}],\"level\":\"warn\"}",
            SESSION);
    assertThat(code(outcome)).isEqualTo("UNAVAILABLE");
  }

  @Test
  void tools_outsideASession_areNoSession() {
    assertThat(
            code(
                call(
                    "cortex_ask_user",
                    "{\"questions\":[{\"question\":\"Q?\"}]}",
                    SessionIdentity.NONE)))
        .isEqualTo("NO_SESSION");
    assertThat(code(call("cortex_plan_enter", "{}", SessionIdentity.NONE))).isEqualTo("NO_SESSION");
    assertThat(
            code(
                call(
                    "cortex_plan_exit",
                    "{\"plan_file_path\":\"plan/P.md\"}",
                    SessionIdentity.NONE)))
        .isEqualTo("NO_SESSION");
  }

  @Test
  void planExit_withoutAPath_isInvalidArgument() {
    assertThat(code(call("cortex_plan_exit", "{\"summary\":\"s\"}", SESSION)))
        .isEqualTo("INVALID_ARGUMENT");
  }
}
