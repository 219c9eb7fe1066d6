package dev.cortex.e2e.workbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.McpClients;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import io.modelcontextprotocol.client.McpSyncClient;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The workbench's costs and waitpoints, over HTTP with a signed-in cookie: the costs are the
 * numbers {@code cost_query} gives, per day and per project against the caps; the waitpoints of
 * every session are listed with their state and signals, and filtered by state.
 */
class UiCostsAndWaitpointsIT {
  @TempDir Path home;
  @TempDir Path work;

  @Test
  void costs_perDayAndPerProject_areTheNumbersOfCostQuery_againstTheCaps() throws Exception {
    Files.createDirectories(home.resolve("config"));
    Files.writeString(
        home.resolve("config/cortex.toml"),
        """
        [budgets]
        daily_usd = 5.0
        monthly_usd = 50.0
        timezone = "UTC"
        [budgets.projects.alpha]
        monthly_usd = 3.0
        [budgets.projects.idle]
        daily_usd = 1.0
        """);
    try (AgentServer server = new AgentServer(home, Map.of()).start();
        SessionApi api = new SessionApi(server)) {
      UiClient ui = new UiClient(server);
      UiClient.Browser browser = ui.signIn();
      JsonNode before = result(ui.post("/api/ui/costs", browser, "{}"));
      assertThat(before.path("days")).hasSize(30);
      assertThat(before.path("total_usd").asDouble()).isZero();

      String alpha =
          api.create(ScriptedAgent.command(), work, Map.of("name", "alpha-1", "project", "alpha"))
              .path("id")
              .asString();
      String loose =
          api.create(ScriptedAgent.command(), work, Map.of("name", "loose")).path("id").asString();
      assertThat(api.follow(alpha, costing(1.25)).result().path("status").asString())
          .isEqualTo("completed");
      assertThat(api.follow(loose, costing(0.5)).result().path("status").asString())
          .isEqualTo("completed");

      JsonNode costs = result(ui.post("/api/ui/costs", browser, "{\"days\":7}"));
      JsonNode all = api.costs(null);
      assertThat(costs.path("currency").asString()).isEqualTo("USD");
      assertThat(costs.path("timezone").asString()).isEqualTo("UTC");
      JsonNode days = costs.path("days");
      assertThat(days).hasSize(7);
      String today = LocalDate.now(ZoneOffset.UTC).toString();
      assertThat(days.get(6).path("day").asString()).isEqualTo(today);
      assertThat(days.get(0).path("day").asString())
          .isEqualTo(LocalDate.parse(today).minusDays(6).toString());
      assertThat(days.get(6).path("usd").asDouble()).isCloseTo(1.75, within(1e-9));
      assertThat(days.get(5).path("usd").asDouble()).isZero();
      assertThat(costs.path("total_usd").asDouble()).isCloseTo(1.75, within(1e-9));
      assertThat(costs.path("today_usd").asDouble())
          .isEqualTo(all.path("today").path("usd").asDouble());
      assertThat(costs.path("month_usd").asDouble())
          .isEqualTo(all.path("month").path("usd").asDouble());
      JsonNode caps = costs.path("caps");
      assertThat(caps.path("daily_usd").asDouble()).isEqualTo(5.0);
      assertThat(caps.path("monthly_usd").asDouble()).isEqualTo(50.0);
      assertThat(caps.path("daily_remaining_usd").asDouble())
          .isEqualTo(all.path("daily").path("remaining_usd").asDouble())
          .isCloseTo(3.25, within(1e-9));
      assertThat(caps.path("monthly_remaining_usd").asDouble())
          .isEqualTo(all.path("monthly").path("remaining_usd").asDouble());

      Map<String, JsonNode> projects = new LinkedHashMap<>();
      costs.path("projects").forEach(p -> projects.put(p.path("project").asString(null), p));
      assertThat(projects).containsOnlyKeys("alpha", null, "idle");
      assertThat(projects.get("alpha").path("usd").asDouble()).isCloseTo(1.25, within(1e-9));
      assertThat(projects.get("alpha").path("month_usd").asDouble())
          .isEqualTo(api.costs("alpha").path("month").path("usd").asDouble());
      assertThat(projects.get("alpha").path("monthly_cap_usd").asDouble()).isEqualTo(3.0);
      assertThat(projects.get("alpha").path("daily_cap_usd").isNull()).isTrue();
      assertThat(projects.get(null).path("today_usd").asDouble()).isCloseTo(0.5, within(1e-9));
      assertThat(projects.get("idle").path("usd").asDouble()).isZero();
      assertThat(projects.get("idle").path("daily_cap_usd").asDouble()).isEqualTo(1.0);

      assertThat(result(ui.post("/api/ui/costs", browser, "{\"days\":366}")).path("days"))
          .hasSize(366);
      for (String bad :
          List.of("{\"days\":0}", "{\"days\":367}", "{\"days\":\"x\"}", "{\"from\":\"today\"}")) {
        HttpResponse<String> refused = ui.post("/api/ui/costs", browser, bad);
        assertThat(refused.statusCode()).as(bad).isEqualTo(400);
        assertThat(UiClient.code(refused)).isEqualTo("INVALID_ARGUMENT");
      }
    }
  }

  @Test
  void waitpoints_ofEverySession_withTheirStateAndSignals_filteredByState() throws Exception {
    try (AgentServer server = new AgentServer(home, Map.of()).start();
        SessionApi api = new SessionApi(server)) {
      UiClient ui = new UiClient(server);
      UiClient.Browser browser = ui.signIn();
      assertThat(result(ui.post("/api/ui/waitpoints", browser, "{}")).path("waitpoints")).isEmpty();
      String id =
          api.create(ScriptedAgent.command(), work, Map.of("name", "waits")).path("id").asString();
      JsonNode fired;
      JsonNode cancelled;
      JsonNode armed;
      try (McpSyncClient tools = SessionApi.extTools(home, id)) {
        fired = create(tools, "build done", "the CI build");
        cancelled = create(tools, "never", "nothing");
        armed = create(tools, "deploy done", "the deploy");
        Outcome cancel =
            McpClients.call(
                tools,
                "wait_cancel",
                Map.of("id", cancelled.path("waitpoint").path("id").asString()));
        assertThat(cancel.isError()).as(cancel.text()).isFalse();
      }
      Map<String, Object> signal = new LinkedHashMap<>();
      signal.put("id", fired.path("waitpoint").path("id").asString());
      signal.put("secret", fired.path("secret").asString());
      signal.put("status", "ok");
      signal.put("message", "green");
      HttpResponse<String> signalled =
          server.post("/webhook/signal", TestJson.JSON.writeValueAsString(signal), Map.of());
      assertThat(signalled.statusCode()).as(signalled.body()).isEqualTo(200);

      JsonNode listed = result(ui.post("/api/ui/waitpoints", browser, "{}")).path("waitpoints");
      assertThat(listed.findValuesAsString("label"))
          .as("newest first")
          .containsExactly("deploy done", "never", "build done");
      Map<String, JsonNode> byLabel = new LinkedHashMap<>();
      listed.forEach(w -> byLabel.put(w.path("label").asString(), w));
      JsonNode done = byLabel.get("build done");
      assertThat(done.path("state").asString()).isEqualTo("fired");
      assertThat(done.path("phase").asString()).isEqualTo("resolved");
      assertThat(done.path("session_id").asString()).isEqualTo(id);
      assertThat(done.path("fires").asInt()).isEqualTo(1);
      assertThat(done.path("ended_at").isNull()).isFalse();
      assertThat(done.path("signals")).hasSize(1);
      assertThat(done.path("signals").get(0).path("status").asString()).isEqualTo("ok");
      assertThat(done.path("signals").get(0).path("message").asString()).isEqualTo("green");
      assertThat(done.path("signals").get(0).path("at").asString()).isNotBlank();
      assertThat(byLabel.get("never").path("state").asString()).isEqualTo("cancelled");
      JsonNode open = byLabel.get("deploy done");
      assertThat(open.path("state").asString()).isEqualTo("armed");
      assertThat(open.path("intent").asString()).isEqualTo("the deploy");
      assertThat(open.path("signals")).isEmpty();
      assertThat(open.toString()).doesNotContain(armed.path("secret").asString());

      assertThat(labels(ui, browser, "armed")).containsExactly("deploy done");
      assertThat(labels(ui, browser, "fired")).containsExactly("build done");
      assertThat(labels(ui, browser, "cancelled")).containsExactly("never");
      assertThat(labels(ui, browser, "expired")).isEmpty();
      for (String bad : List.of("{\"state\":\"open\"}", "{\"state\":1}", "{\"session\":\"x\"}")) {
        HttpResponse<String> refused = ui.post("/api/ui/waitpoints", browser, bad);
        assertThat(refused.statusCode()).as(bad).isEqualTo(400);
        assertThat(UiClient.code(refused)).isEqualTo("INVALID_ARGUMENT");
      }
    }
  }

  private static JsonNode create(McpSyncClient tools, String label, String intent) {
    Outcome created =
        McpClients.call(tools, "wait_create", Map.of("label", label, "intent", intent));
    assertThat(created.isError()).as(created.text()).isFalse();
    return created.structured();
  }

  private static List<String> labels(UiClient ui, UiClient.Browser browser, String state)
      throws Exception {
    return result(ui.post("/api/ui/waitpoints", browser, "{\"state\":\"" + state + "\"}"))
        .path("waitpoints")
        .findValuesAsString("label");
  }

  private static String costing(double usd) {
    Map<String, Object> cost = new LinkedHashMap<>();
    cost.put("model", "scripted");
    cost.put("input_tokens", 10);
    cost.put("output_tokens", 5);
    cost.put("usd", usd);
    cost.put("mode", "api");
    return Workbench.script(Map.of("say", "spent", "cost", cost));
  }

  private static JsonNode result(HttpResponse<String> answer) throws Exception {
    assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
    return TestJson.JSON.readTree(answer.body()).path("result");
  }
}
