package dev.cortex.server.sessions;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import dev.cortex.server.sessions.store.Costs;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * Spending caps that block: a turn that would start while today's or this month's spend (overall,
 * or of its project) has reached its cap is refused with a sentence naming the cap. Days and months
 * are those of the {@code timezone} (default: the server's).
 *
 * <pre>
 * [budgets]
 * daily_usd = 20.0              # CORTEX_BUDGET_DAILY_USD
 * monthly_usd = 300.0           # CORTEX_BUDGET_MONTHLY_USD
 * timezone = "Europe/Berlin"
 * [budgets.projects.example-api]
 * daily_usd = 5.0
 * monthly_usd = 50.0
 * </pre>
 *
 * @param dailyUsd null for no cap
 */
public record Budgets(Double dailyUsd, Double monthlyUsd, ZoneId zone, Map<String, Cap> projects) {
  /** The caps of one project. */
  public record Cap(Double dailyUsd, Double monthlyUsd) {}

  public Budgets {
    projects = Map.copyOf(projects);
  }

  public static final Budgets NONE = new Budgets(null, null, ZoneId.systemDefault(), Map.of());

  public static final SettingsTable<Budgets> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "budgets";
        }

        @Override
        public Set<String> keys() {
          return Set.of("daily_usd", "monthly_usd", "timezone", "projects");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of(
              "CORTEX_BUDGET_DAILY_USD", "daily_usd", "CORTEX_BUDGET_MONTHLY_USD", "monthly_usd");
        }

        @Override
        public Budgets read(TableValues values) {
          ZoneId zone;
          String name = values.string("timezone", null);
          try {
            zone = name == null ? ZoneId.systemDefault() : ZoneId.of(name);
          } catch (RuntimeException e) {
            throw values.problem(
                "timezone", "'" + name + "' is not a time zone such as Europe/Berlin");
          }
          Map<String, Cap> projects = new LinkedHashMap<>();
          for (Map.Entry<String, JsonNode> project : values.table("projects").entrySet()) {
            projects.put(project.getKey(), cap(values, project.getKey(), project.getValue()));
          }
          return new Budgets(
              values.decimal("daily_usd", 0, 1e9),
              values.decimal("monthly_usd", 0, 1e9),
              zone,
              projects);
        }
      };

  private static Cap cap(TableValues values, String project, JsonNode node) {
    if (!node.isObject()) {
      throw values.problem(
          "projects", project, "expected a table with daily_usd and/or monthly_usd");
    }
    Double daily = null;
    Double monthly = null;
    for (Map.Entry<String, JsonNode> entry : node.properties()) {
      JsonNode value = entry.getValue();
      if (!value.isNumber() || value.asDouble() < 0) {
        throw values.problem(
            "projects",
            project + "." + entry.getKey(),
            "expected a number of US dollars, 0 or more");
      }
      switch (entry.getKey()) {
        case "daily_usd" -> daily = value.asDouble();
        case "monthly_usd" -> monthly = value.asDouble();
        default ->
            throw values.problem(
                "projects",
                project + "." + entry.getKey(),
                "unknown key (known: daily_usd, monthly_usd)");
      }
    }
    return new Cap(daily, monthly);
  }

  /** The start of today and of this month, and of the next ones, in the budgets' zone. */
  public record Periods(Instant dayStart, Instant dayEnd, Instant monthStart, Instant monthEnd) {}

  public Periods periods(Clock clock) {
    LocalDate today = ZonedDateTime.ofInstant(clock.instant(), zone).toLocalDate();
    LocalDate month = today.withDayOfMonth(1);
    return new Periods(
        today.atStartOfDay(zone).toInstant(),
        today.plusDays(1).atStartOfDay(zone).toInstant(),
        month.atStartOfDay(zone).toInstant(),
        month.plusMonths(1).atStartOfDay(zone).toInstant());
  }

  /** Why a turn of {@code project} may not start now, or null when it may. */
  public String refusal(Costs costs, String project, Clock clock) {
    Periods p = periods(clock);
    String overall = check(costs, null, dailyUsd, monthlyUsd, p, "the overall");
    if (overall != null) {
      return overall;
    }
    Cap cap = project == null ? null : projects.get(project);
    return cap == null
        ? null
        : check(costs, project, cap.dailyUsd(), cap.monthlyUsd(), p, "project " + project + "'s");
  }

  /** Dollars as people read them: cents, or four decimals below one dollar. */
  static String usd(double amount) {
    return amount >= 1 || amount == 0
        ? String.format(Locale.ROOT, "$%.2f", amount)
        : String.format(Locale.ROOT, "$%.4f", amount);
  }

  private static String check(
      Costs costs, String project, Double daily, Double monthly, Periods p, String whose) {
    if (daily != null) {
      double spent = costs.between(p.dayStart(), p.dayEnd(), project).usd();
      if (spent >= daily) {
        return "The turn was not started: "
            + whose
            + " daily budget of "
            + usd(daily)
            + " is spent ("
            + usd(spent)
            + " today). Raise [budgets] in cortex.toml, or wait for tomorrow.";
      }
    }
    if (monthly != null) {
      double spent = costs.between(p.monthStart(), p.monthEnd(), project).usd();
      if (spent >= monthly) {
        return "The turn was not started: "
            + whose
            + " monthly budget of "
            + usd(monthly)
            + " is spent ("
            + usd(spent)
            + " this month). Raise [budgets] in cortex.toml, or wait for next month.";
      }
    }
    return null;
  }
}
