package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.costing;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** Budgets: a project over its cap is refused; others run on; the figures survive a restart. */
class BudgetsIT {
  @TempDir static Path work;
  static AgentPrograms programs;

  @BeforeAll
  static void writePrograms() throws Exception {
    programs = AgentPrograms.write(work);
  }

  @Test
  void budgets_aProjectOverItsDailyCap_isRefused_othersRunOn_andTheFiguresSurviveARestart(
      @TempDir Path otherHome) throws Exception {
    Files.createDirectories(otherHome.resolve("config"));
    Files.writeString(
        otherHome.resolve("config/cortex.toml"),
        """
        [budgets]
        daily_usd = 2.0
        timezone = "UTC"
        [budgets.projects.capped]
        daily_usd = 0.5
        """);
    AgentServer other = new AgentServer(otherHome, Map.of()).start();
    try (other;
        SessionApi otherApi = new SessionApi(other)) {
      List<String> agent = ScriptedAgent.command();
      String capped =
          otherApi
              .create(agent, work, Map.of("name", "capped-1", "project", "capped"))
              .path("id")
              .asString();
      String sibling =
          otherApi
              .create(agent, work, Map.of("name", "capped-2", "project", "capped"))
              .path("id")
              .asString();
      String free =
          otherApi
              .create(agent, work, Map.of("name", "free-1", "project", "free"))
              .path("id")
              .asString();
      assertThat(otherApi.follow(capped, costing(0.3, "api")).result().path("status").asString())
          .isEqualTo("completed");
      JsonNode half = otherApi.costs("capped");
      assertThat(half.path("daily").path("cap_usd").asDouble()).isEqualTo(0.5);
      assertThat(half.path("daily").path("remaining_usd").asDouble()).isCloseTo(0.2, within(1e-9));
      // Under the cap when it starts: the turn runs, and may take the spend past the cap.
      assertThat(otherApi.follow(capped, costing(0.3, "plan")).result().path("status").asString())
          .isEqualTo("completed");
      assertThat(otherApi.follow(free, costing(0.3, "api")).result().path("status").asString())
          .isEqualTo("completed");
      String refusal =
          "The turn was not started: project capped's daily budget of $0.5000 is spent"
              + " ($0.6000 today). Raise [budgets] in cortex.toml, or wait for tomorrow.";
      List<JsonNode> cappedBefore = otherApi.transcript(capped);

      for (int start = 0; start < 2; start++) {
        for (String session : List.of(capped, sibling)) {
          SessionApi.Answer refused =
              otherApi.call("send", Map.of("session", session, "text", "one more"));
          assertThat(refused.status()).isEqualTo(402);
          assertThat(refused.code()).isEqualTo("BUDGET_EXCEEDED");
          assertThat(refused.message()).isEqualTo(refusal);
        }
        assertThat(otherApi.transcript(capped)).isEqualTo(cappedBefore);
        assertThat(otherApi.transcript(sibling)).isEmpty();
        assertThat(otherApi.executionsOf(capped)).hasSize(2);
        assertThat(otherApi.executionsOf(sibling)).isEmpty();
        JsonNode spent = otherApi.costs("capped");
        assertThat(spent.path("today").path("usd").asDouble()).isCloseTo(0.6, within(1e-9));
        assertThat(spent.path("today").path("api_usd").asDouble()).isCloseTo(0.3, within(1e-9));
        assertThat(spent.path("today").path("plan_usd").asDouble()).isCloseTo(0.3, within(1e-9));
        assertThat(spent.path("today").path("records").asLong()).isEqualTo(2);
        assertThat(spent.path("today").path("tokens").path("input").asLong()).isEqualTo(20);
        assertThat(spent.path("daily").path("remaining_usd").asDouble()).isZero();
        JsonNode all = otherApi.costs(null);
        assertThat(all.path("today").path("usd").asDouble()).isCloseTo(0.9, within(1e-9));
        assertThat(all.path("daily").path("cap_usd").asDouble()).isEqualTo(2.0);
        assertThat(all.path("daily").path("remaining_usd").asDouble()).isCloseTo(1.1, within(1e-9));
        JsonNode freeSpent = otherApi.costs("free");
        assertThat(freeSpent.path("today").path("usd").asDouble()).isCloseTo(0.3, within(1e-9));
        assertThat(freeSpent.path("daily").path("remaining_usd").asDouble())
            .as("what the overall cap leaves")
            .isCloseTo(1.1, within(1e-9));
        if (start == 0) {
          assertThat(other.stop()).isEqualTo(143);
          other.start();
        }
      }
      CliRun cli = CliRun.run(other, "", "sessions", "send", "capped-1", "from the terminal");
      assertThat(cli.exitCode()).isEqualTo(1);
      assertThat(cli.stderr()).contains("cortex: BUDGET_EXCEEDED: " + refusal);

      // The other project runs on, until the overall cap is spent too.
      assertThat(otherApi.follow(free, costing(1.2, "api")).result().path("status").asString())
          .isEqualTo("completed");
      SessionApi.Answer overall = otherApi.call("send", Map.of("session", free, "text", "more"));
      assertThat(overall.code()).isEqualTo("BUDGET_EXCEEDED");
      assertThat(overall.message())
          .isEqualTo(
              "The turn was not started: the overall daily budget of $2.00 is spent ($2.10"
                  + " today). Raise [budgets] in cortex.toml, or wait for tomorrow.");
      JsonNode all = otherApi.costs(null);
      assertThat(all.path("today").path("usd").asDouble()).isCloseTo(2.1, within(1e-9));
      assertThat(all.path("month").path("usd").asDouble()).isCloseTo(2.1, within(1e-9));
      assertThat(all.path("today").path("records").asLong()).isEqualTo(4);
      assertThat(all.path("daily").path("remaining_usd").asDouble()).isZero();
    }
  }

  /**
   * A cost line without a figure used to price cache reads at $0 and cache writes at the plain
   * input rate: spend was under-reported and budgets never counted those tokens. They are priced at
   * the table's cache rates (claude-sonnet-4-5: $0.30 a million cache reads, $3.75 a million cache
   * writes).
   */
  @Test
  void budgets_cacheTokensWithoutAFigure_arePricedAtTheCacheRates_andCountTowardsTheCap(
      @TempDir Path otherHome) throws Exception {
    Files.createDirectories(otherHome.resolve("config"));
    Files.writeString(
        otherHome.resolve("config/cortex.toml"),
        """
        [budgets]
        daily_usd = 4.0
        timezone = "UTC"
        """);
    AgentServer other = new AgentServer(otherHome, Map.of()).start();
    try (other;
        SessionApi otherApi = new SessionApi(other)) {
      String id =
          otherApi
              .create(ScriptedAgent.command(), work, Map.of("name", "cached", "project", "cached"))
              .path("id")
              .asString();
      Map<String, Object> cost = new LinkedHashMap<>();
      cost.put("model", "claude-sonnet-4-5");
      cost.put("input_tokens", 0);
      cost.put("output_tokens", 0);
      cost.put("cache_read_tokens", 1_000_000);
      cost.put("cache_write_tokens", 1_000_000);
      cost.put("usd", null);
      cost.put("mode", "api");

      SessionApi.Answer turn =
          otherApi.follow(id, SessionServer.script(Map.of("say", "cached", "cost", cost)));

      assertThat(turn.result().path("status").asString()).isEqualTo("completed");
      double usd = 0.30 + 3.75;
      JsonNode execution = otherApi.execution(turn.result().path("execution_id").asString());
      assertThat(execution.path("cost_usd").asDouble()).isCloseTo(usd, within(1e-9));
      JsonNode spent = otherApi.costs("cached");
      assertThat(spent.path("today").path("usd").asDouble()).isCloseTo(usd, within(1e-9));
      assertThat(spent.path("today").path("tokens").path("cache_read").asLong())
          .isEqualTo(1_000_000);
      SessionApi.Answer refused = otherApi.call("send", Map.of("session", id, "text", "more"));
      assertThat(refused.status()).isEqualTo(402);
      assertThat(refused.code()).isEqualTo("BUDGET_EXCEEDED");
      assertThat(refused.message()).contains("($4.05 today)");
    }
  }
}
