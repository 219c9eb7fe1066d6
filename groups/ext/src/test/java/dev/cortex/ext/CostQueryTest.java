package dev.cortex.ext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cortex.mcp.tool.ToolOutcome;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.storage.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** cost_query over recorded costs, days and months counted in the budgets' zone. */
class CostQueryTest {
  /** 19:00 on 15 December in Tokyo. */
  static final Instant NOW = Instant.parse("2026-12-15T10:00:00Z");

  static final ZoneId TOKYO = ZoneId.of("Asia/Tokyo");

  @TempDir Path dir;
  Database database;
  Costs costs;
  ExtTools tools;

  @BeforeEach
  void open() {
    database = new Database(dir.resolve("data"), List.of(SessionsSchema.area()), Clock.systemUTC());
    Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);
    costs = new Costs(() -> database, clock);
    tools = new ExtTools(ExtTools.home(dir), database, clock, Map.of());
    tools.budgets.set(new Budgets(null, null, TOKYO, Map.of()));
  }

  @AfterEach
  void close() {
    database.close();
  }

  void cost(String at, String project, String source, String mode, double usd) {
    costs.record(
        new Costs.Entry(
            Instant.parse(at), "ex-1", "ses-1", project, source, "opus", mode, 100, 20, 5, 1, usd));
  }

  JsonNode query(String arguments) {
    ToolOutcome outcome = tools.call(CostQuery.NAME, arguments);
    assertThat(outcome.isError()).as(outcome.text()).isFalse();
    return outcome.body();
  }

  @Test
  void handle_nothingSpentAndNoCaps_isZeroWithNullCaps() {
    JsonNode answer = query("{}");

    assertThat(answer.path("project").isNull()).isTrue();
    assertThat(answer.path("timezone").asString()).isEqualTo("Asia/Tokyo");
    assertThat(answer.path("today").path("usd").asDouble()).isZero();
    assertThat(answer.path("today").path("records").asLong()).isZero();
    assertThat(answer.path("daily").path("cap_usd").isNull()).isTrue();
    assertThat(answer.path("daily").path("remaining_usd").isNull()).isTrue();
    assertThat(answer.path("monthly").path("cap_usd").isNull()).isTrue();
  }

  @Test
  void handle_costs_areCountedByTheDayAndMonthOfTheBudgetsZone() {
    cost("2026-12-14T16:00:00Z", "api", "turn", "api", 1.0); // 15 Dec 01:00 in Tokyo
    cost("2026-12-14T14:00:00Z", "api", "turn", "plan", 2.0); // 14 Dec 23:00
    cost("2026-11-30T16:00:00Z", "api", "worker", "api", 4.0); // 1 Dec 01:00
    cost("2026-11-30T14:00:00Z", "api", "turn", "api", 8.0); // 30 Nov 23:00

    JsonNode answer = query("{}");

    JsonNode today = answer.path("today");
    assertThat(today.path("from").asString()).isEqualTo("2026-12-14T15:00:00Z");
    assertThat(today.path("to").asString()).isEqualTo("2026-12-15T15:00:00Z");
    assertThat(today.path("usd").asDouble()).isEqualTo(1.0);
    assertThat(today.path("records").asLong()).isEqualTo(1);
    JsonNode month = answer.path("month");
    assertThat(month.path("from").asString()).isEqualTo("2026-11-30T15:00:00Z");
    assertThat(month.path("to").asString()).isEqualTo("2026-12-31T15:00:00Z");
    assertThat(month.path("usd").asDouble()).isEqualTo(7.0);
    assertThat(month.path("api_usd").asDouble()).isEqualTo(5.0);
    assertThat(month.path("plan_usd").asDouble()).isEqualTo(2.0);
    assertThat(month.path("by_source").path("turn").asDouble()).isEqualTo(3.0);
    assertThat(month.path("by_source").path("worker").asDouble()).isEqualTo(4.0);
    assertThat(month.path("tokens").path("input").asLong()).isEqualTo(300);
    assertThat(month.path("tokens").path("output").asLong()).isEqualTo(60);
    assertThat(month.path("tokens").path("cache_read").asLong()).isEqualTo(15);
    assertThat(month.path("tokens").path("cache_write").asLong()).isEqualTo(3);
  }

  @Test
  void handle_caps_sayWhatRemains_neverBelowZero() {
    tools.budgets.set(new Budgets(1.0, 10.0, TOKYO, Map.of()));
    cost("2026-12-15T01:00:00Z", "api", "turn", "api", 1.5);

    JsonNode answer = query("{}");

    assertThat(answer.path("daily").path("cap_usd").asDouble()).isEqualTo(1.0);
    assertThat(answer.path("daily").path("remaining_usd").asDouble()).isZero();
    assertThat(answer.path("monthly").path("remaining_usd").asDouble()).isEqualTo(8.5);
  }

  @Test
  void handle_aProjectWithCapsOfItsOwn_countsItAlone_andTheLeastRemainingApplies() {
    tools.budgets.set(new Budgets(10.0, null, TOKYO, Map.of("api", new Budgets.Cap(5.0, 100.0))));
    cost("2026-12-15T01:00:00Z", "api", "turn", "api", 2.0);
    cost("2026-12-15T02:00:00Z", "web", "turn", "api", 7.0);

    JsonNode answer = query("{\"projectId\": \"api\"}");

    assertThat(answer.path("project").asString()).isEqualTo("api");
    assertThat(answer.path("today").path("usd").asDouble()).isEqualTo(2.0);
    // Its own cap leaves 3, the overall one 1: a turn of api is refused past 1 more dollar.
    assertThat(answer.path("daily").path("cap_usd").asDouble()).isEqualTo(5.0);
    assertThat(answer.path("daily").path("remaining_usd").asDouble()).isCloseTo(1.0, within(1e-9));
    assertThat(answer.path("monthly").path("cap_usd").asDouble()).isEqualTo(100.0);
    assertThat(answer.path("monthly").path("remaining_usd").asDouble()).isEqualTo(98.0);
  }

  @Test
  void handle_aProjectWithoutCapsOfItsOwn_hasTheOverallCaps() {
    tools.budgets.set(new Budgets(10.0, null, TOKYO, Map.of()));
    cost("2026-12-15T01:00:00Z", "api", "turn", "api", 2.0);
    cost("2026-12-15T02:00:00Z", "web", "turn", "api", 7.0);

    JsonNode answer = query("{\"projectId\": \"web\"}");

    assertThat(answer.path("today").path("usd").asDouble()).isEqualTo(7.0);
    assertThat(answer.path("daily").path("cap_usd").asDouble()).isEqualTo(10.0);
    assertThat(answer.path("daily").path("remaining_usd").asDouble()).isEqualTo(1.0);
  }

  @Test
  void handle_anEmptyProjectId_isInvalidArgument() {
    assertThat(ExtTools.code(tools.call(CostQuery.NAME, "{\"projectId\": \"\"}")))
        .isEqualTo("INVALID_ARGUMENT");
  }
}
