package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.StartupException;
import dev.cortex.base.settings.CortexToml;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.storage.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BudgetsTest {
  @TempDir Path dir;

  Budgets load(String toml) throws Exception {
    Files.writeString(dir.resolve("cortex.toml"), toml);
    return CortexToml.load(dir, Map.of(), List.of(Budgets.TABLE)).get(Budgets.TABLE);
  }

  @Test
  void load_capsOverallAndPerProject() throws Exception {
    Budgets budgets =
        load(
            "[budgets]\ndaily_usd = 2.5\nmonthly_usd = 40\ntimezone = \"Asia/Tokyo\"\n"
                + "[budgets.projects.api]\ndaily_usd = 1.0\n");

    assertThat(budgets.dailyUsd()).isEqualTo(2.5);
    assertThat(budgets.monthlyUsd()).isEqualTo(40.0);
    assertThat(budgets.zone()).isEqualTo(ZoneId.of("Asia/Tokyo"));
    assertThat(budgets.projects().get("api").dailyUsd()).isEqualTo(1.0);
    assertThat(budgets.projects().get("api").monthlyUsd()).isNull();
  }

  @Test
  void load_badValues_nameTheKey() {
    assertThatThrownBy(() -> load("[budgets]\ndaily_usd = \"ten\"\n"))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("[budgets] daily_usd");
    assertThatThrownBy(() -> load("[budgets]\ntimezone = \"Mars/Base\"\n"))
        .hasMessageContaining("[budgets] timezone");
    assertThatThrownBy(() -> load("[budgets.projects.api]\nweekly_usd = 3\n"))
        .hasMessageContaining("projects.api.weekly_usd")
        .hasMessageContaining("daily_usd, monthly_usd");
  }

  @Test
  void refusal_namesTheCapThatIsSpent_inTheBudgetsTimeZone() throws Exception {
    try (Database database =
        new Database(dir.resolve("data"), List.of(SessionsSchema.area()), Clock.systemUTC())) {
      Costs costs = new Costs(() -> database, Clock.systemUTC());
      // 23:30 UTC on Nov 30 is Dec 1 in Tokyo.
      costs.record(
          new Costs.Entry(
              Instant.parse("2026-11-30T23:30:00Z"),
              "ex",
              "s",
              "api",
              "turn",
              "m",
              "api",
              1,
              1,
              0,
              0,
              1.2));
      Budgets tokyo =
          load("[budgets]\ntimezone = \"Asia/Tokyo\"\n[budgets.projects.api]\ndaily_usd = 1.0\n");
      Clock decFirstTokyo = Clock.fixed(Instant.parse("2026-12-01T01:00:00Z"), ZoneOffset.UTC);
      Clock decSecondTokyo = Clock.fixed(Instant.parse("2026-12-01T16:00:00Z"), ZoneOffset.UTC);

      assertThat(tokyo.refusal(costs, "api", decFirstTokyo))
          .contains("project api's daily budget of $1.00 is spent ($1.20 today)");
      assertThat(tokyo.refusal(costs, "web", decFirstTokyo)).as("another project").isNull();
      assertThat(tokyo.refusal(costs, "api", decSecondTokyo)).as("the next day").isNull();
    }
  }
}
