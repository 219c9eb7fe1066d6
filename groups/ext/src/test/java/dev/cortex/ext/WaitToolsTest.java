package dev.cortex.ext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CortexHome;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.tool.ToolOutcome;
import dev.cortex.server.client.AgentServerClient;
import dev.cortex.server.daemon.Daemon;
import dev.cortex.server.daemon.DeviceSettings;
import dev.cortex.server.daemon.ServerSettings;
import dev.cortex.server.sessions.AllowlistCheck;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.SessionSettings;
import dev.cortex.server.sessions.backend.CommandBackend;
import dev.cortex.server.waitpoints.WaitSettings;
import dev.cortex.storage.Database;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * wait_create, wait_check and wait_cancel against a real agent server on loopback ports, with its
 * database in a directory of the test's: the tools add the calling session and pass the server's
 * answers and refusals through.
 */
class WaitToolsTest {
  static final Map<String, String> ENV =
      Map.of(
          "CORTEX_WEBHOOK_TOKEN", "a-webhook-token-for-the-tests-only",
          "CORTEX_CONFIG_IMMUTABLE", "1");

  @TempDir static Path dir;
  static Database database;
  static Daemon daemon;
  static ExtTools tools;
  static SessionIdentity session;

  @BeforeAll
  static void start() throws Exception {
    CortexHome home = ExtTools.home(dir);
    database = new Database(home.dataDir(), Daemon.storageAreas(), Clock.systemUTC());
    daemon =
        Daemon.start(
            new Daemon.Options(
                home,
                ENV,
                new ServerSettings(
                    0, "127.0.0.1", 0, "127.0.0.1", null, "UNUSED", Duration.ofSeconds(1)),
                DeviceSettings.DEFAULTS,
                "0.0.0-test",
                () -> database,
                () -> {},
                Clock.systemUTC(),
                SessionSettings.DEFAULTS,
                () -> Budgets.NONE,
                List.of(new CommandBackend()),
                () -> WaitSettings.DEFAULTS,
                AllowlistCheck.NONE,
                Optional::empty));
    tools = new ExtTools(home, database, Clock.systemUTC(), ENV);
    Path agent = Files.writeString(dir.resolve("agent.sh"), "#!/bin/sh\nexit 0\n");
    JsonNode created =
        new AgentServerClient(ENV, home)
            .post(
                "/api/sessions/create",
                Map.of(
                    "backend",
                    "command",
                    "program",
                    List.of(agent.toString()),
                    "working_dir",
                    dir.toString()),
                Duration.ofSeconds(30),
                Cancellation.NONE,
                event -> {});
    session = ExtTools.session(created.path("id").asString(), null);
  }

  @AfterAll
  static void stop() {
    if (daemon != null) {
      daemon.stop();
    }
    if (database != null) {
      database.close();
    }
  }

  static JsonNode ok(ToolOutcome outcome) {
    assertThat(outcome.isError()).as(outcome.text()).isFalse();
    return outcome.body();
  }

  @Test
  void create_inASession_returnsTheWaitpointItsSecretAndARecipe() {
    JsonNode created =
        ok(
            tools.call(
                WaitTools.CREATE,
                "{\"label\": \"train\", \"intent\": \"compare\", \"members\": [\"a\", \"b\"],"
                    + " \"quorum\": 1, \"max_signals\": 2, \"expires_in_hours\": 2}",
                session));

    JsonNode waitpoint = created.path("waitpoint");
    String id = waitpoint.path("id").asString();
    assertThat(id).matches("wp-[0-9a-f]{12}");
    assertThat(waitpoint.path("state").asString()).isEqualTo("open");
    assertThat(waitpoint.path("members")).hasSize(2);
    assertThat(waitpoint.path("quorum").asInt()).isEqualTo(1);
    assertThat(waitpoint.path("max_signals").asInt()).isEqualTo(2);
    assertThat(created.path("secret").asString()).startsWith("wps_");
    assertThat(created.path("recipe").path("command").asString())
        .contains("signal " + id)
        .contains("--member MEMBER");
    assertThat(created.path("recipe").path("curl").asString())
        .contains("127.0.0.1:" + daemon.webhookPort() + "/webhook/signal");
    assertThat(created.path("recipe").path("device").isNull()).isTrue();
  }

  @Test
  void check_andCancel_seeAndEndTheSessionsWaitpoint() {
    String id =
        ok(tools.call(WaitTools.CREATE, "{\"label\": \"build\", \"intent\": \"ship\"}", session))
            .path("waitpoint")
            .path("id")
            .asString();

    JsonNode one = ok(tools.call(WaitTools.CHECK, "{\"id\": \"" + id + "\"}", session));
    JsonNode cancelled = ok(tools.call(WaitTools.CANCEL, "{\"id\": \"" + id + "\"}", session));
    JsonNode again = ok(tools.call(WaitTools.CANCEL, "{\"id\": \"" + id + "\"}", session));

    assertThat(one.path("waitpoints")).hasSize(1);
    assertThat(one.path("waitpoints").get(0).path("label").asString()).isEqualTo("build");
    assertThat(cancelled.path("cancelled").asBoolean()).isTrue();
    assertThat(cancelled.path("state").asString()).isEqualTo("cancelled");
    assertThat(again.path("cancelled").asBoolean()).isFalse();
    JsonNode all = ok(tools.call(WaitTools.CHECK, "{}", session));
    for (JsonNode waitpoint : all.path("waitpoints")) {
      assertThat(waitpoint.path("id").asString()).isNotEqualTo(id);
    }
  }

  @Test
  void create_theServersRefusal_isPassedOnWithItsCode() {
    ToolOutcome outcome =
        tools.call(
            WaitTools.CREATE,
            "{\"label\": \"x\", \"intent\": \"y\", \"quorum\": \"all\"}",
            session);

    assertThat(ExtTools.code(outcome)).isEqualTo("INVALID_ARGUMENT");
    assertThat(outcome.body().path("error").path("message").asString())
        .contains("quorum \"all\" needs members");
  }

  @Test
  void check_anotherSessionsOrAnUnknownWaitpoint_isNotFound() {
    ToolOutcome outcome = tools.call(WaitTools.CHECK, "{\"id\": \"wp-000000000000\"}", session);

    assertThat(ExtTools.code(outcome)).isEqualTo("NOT_FOUND");
  }

  @Test
  void create_forASessionTheServerLacks_isNoSession() {
    ToolOutcome outcome =
        tools.call(
            WaitTools.CREATE,
            "{\"label\": \"x\", \"intent\": \"y\"}",
            ExtTools.session("ses-unknown", null));

    assertThat(ExtTools.code(outcome)).isEqualTo("NO_SESSION");
  }

  @Test
  void everyTool_outsideASession_isNoSessionBeforeTheServerIsAsked() {
    for (String[] call :
        List.of(
            new String[] {WaitTools.CREATE, "{\"label\": \"x\", \"intent\": \"y\"}"},
            new String[] {WaitTools.CHECK, "{}"},
            new String[] {WaitTools.CANCEL, "{\"id\": \"wp-000000000000\"}"})) {
      ToolOutcome outcome = tools.call(call[0], call[1]);
      assertThat(ExtTools.code(outcome)).as(call[0]).isEqualTo("NO_SESSION");
      assertThat(outcome.body().path("error").path("message").asString())
          .contains("CORTEX_SESSION_ID");
    }
  }

  @Test
  void create_argumentsOutsideTheSchema_areRefusedBeforeTheServerIsAsked() {
    for (String arguments :
        List.of(
            "{\"intent\": \"no label\"}",
            "{\"label\": \"\", \"intent\": \"y\"}",
            "{\"label\": \"x\", \"intent\": \"y\", \"max_signals\": 0}",
            "{\"label\": \"x\", \"intent\": \"y\", \"quorum\": \"some\"}",
            "{\"label\": \"x\", \"intent\": \"y\", \"surprise\": true}")) {
      assertThat(ExtTools.code(tools.call(WaitTools.CREATE, arguments, session)))
          .as(arguments)
          .isEqualTo("INVALID_ARGUMENT");
    }
    assertThat(ExtTools.code(tools.call(WaitTools.CHECK, "{\"id\": \"wp-nope\"}", session)))
        .isEqualTo("INVALID_ARGUMENT");
  }

  @Test
  void create_withoutARunningServer_isUnavailable() throws IOException {
    int closed;
    try (ServerSocket socket = new ServerSocket(0)) {
      closed = socket.getLocalPort();
    }
    ExtTools nowhere =
        new ExtTools(
            ExtTools.home(dir.resolve("elsewhere")),
            database,
            Clock.systemUTC(),
            Map.of("WEBHOOK_PORT", Integer.toString(closed)));

    ToolOutcome outcome =
        nowhere.call(WaitTools.CREATE, "{\"label\": \"x\", \"intent\": \"y\"}", session);

    assertThat(ExtTools.code(outcome)).isEqualTo("UNAVAILABLE");
  }
}
