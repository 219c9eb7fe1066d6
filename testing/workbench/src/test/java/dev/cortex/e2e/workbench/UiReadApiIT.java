package dev.cortex.e2e.workbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The workbench's read API and its door to new sessions, over HTTP with a signed-in cookie: the
 * overview lists the sessions with their state, the executions list the turns, the devices list the
 * registered machines; create there makes a person's {@code web:} session; bad bodies are refused.
 */
class UiReadApiIT {
  @TempDir Path home;
  @TempDir Path work;

  @Test
  void overviewExecutionsAndDevices_showWhatTheServerHas_andCreateMakesAWebSession()
      throws Exception {
    try (AgentServer server = new AgentServer(home, Map.of()).start();
        SessionApi api = new SessionApi(server)) {
      UiClient ui = new UiClient(server);
      UiClient.Browser browser = ui.signIn();
      String id =
          api.create(ScriptedAgent.command(), work, Map.of("name", "seen")).path("id").asString();
      api.send(id, "hello");
      api.awaitIdle(id);

      JsonNode overview = result(ui.post("/api/ui/overview", browser, "{}"));
      assertThat(overview.path("sessions").findValuesAsString("id")).contains(id);
      assertThat(overview.path("running").asInt()).isZero();
      assertThat(overview.path("waiting").asInt()).isZero();
      assertThat(overview.path("devices_online").asInt()).isZero();

      JsonNode executions =
          result(ui.post("/api/ui/executions", browser, "{\"session\":\"" + id + "\"}"));
      assertThat(executions.path("executions")).hasSize(1);
      assertThat(executions.path("executions").get(0).path("status").asString())
          .isEqualTo("completed");
      assertThat(executions.path("executions").get(0).path("session_id").asString()).isEqualTo(id);

      JsonNode devices = result(ui.post("/api/ui/devices", browser, "{}"));
      assertThat(devices.path("devices").isArray()).isTrue();
      assertThat(devices.path("devices")).isEmpty();

      String body =
          TestJson.JSON.writeValueAsString(
              Map.of(
                  "name",
                  "from-the-page",
                  "backend",
                  "command",
                  "program",
                  ScriptedAgent.command(),
                  "working_dir",
                  work.toString()));
      JsonNode created = result(ui.post("/api/sessions/create", browser, body));
      assertThat(created.path("channel").asString()).startsWith("web:");
      assertThat(created.path("started_by").asString()).isEqualTo("person");

      for (String[] bad :
          new String[][] {
            {"/api/ui/overview", "{\"extra\":1}"},
            {"/api/ui/executions", "{\"limit\":0}"},
            {"/api/ui/executions", "{\"limit\":501}"},
            {"/api/ui/devices", "{\"all\":true}"},
            {"/api/sessions/create", "{\"name\":\"x\",\"channel\":\"web:mine\"}"},
            {"/api/sessions/create", "{\"name\":\"y\",\"started_by\":\"agent\"}"}
          }) {
        HttpResponse<String> refused = ui.post(bad[0], browser, bad[1]);
        assertThat(refused.statusCode()).as(bad[0] + " " + bad[1]).isEqualTo(400);
        assertThat(UiClient.code(refused)).isEqualTo("INVALID_ARGUMENT");
      }
      assertThat(result(ui.post("/api/ui/overview", browser, "{}")).path("sessions")).hasSize(2);
    }
  }

  private static JsonNode result(HttpResponse<String> answer) throws Exception {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return TestJson.JSON.readTree(answer.body()).path("result");
  }
}
