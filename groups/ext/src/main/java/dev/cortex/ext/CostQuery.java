package dev.cortex.ext;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.store.Costs;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;

/** {@code cost_query}: today's and this month's spend, the caps and what remains. */
final class CostQuery {
  static final String NAME = "cost_query";

  private final Costs costs;
  private final Supplier<Budgets> budgets;
  private final Clock clock;

  CostQuery(Costs costs, Supplier<Budgets> budgets, Clock clock) {
    this.costs = costs;
    this.budgets = budgets;
    this.clock = clock;
  }

  record Arguments(@JsonProperty("projectId") String projectId) {}

  record Tokens(long input, long output, long cacheRead, long cacheWrite) {}

  record Spend(
      String from,
      String to,
      double usd,
      double apiUsd,
      double planUsd,
      Map<String, Double> bySource,
      Tokens tokens,
      long records) {}

  record Budget(Double capUsd, Double remainingUsd) {}

  record Result(
      String project, String timezone, Spend today, Spend month, Budget daily, Budget monthly) {}

  static Map<String, Object> spendSchema(String what) {
    return Schema.object()
        .description(what)
        .required("from", Schema.instant("Start of the period."))
        .required("to", Schema.instant("End of the period, exclusive."))
        .required("usd", Schema.number("Spend in US dollars."))
        .required("api_usd", Schema.number("Of which paid per token through an API."))
        .required(
            "plan_usd", Schema.number("Of which used on a subscription plan (its API-rate value)."))
        .required(
            "by_source",
            Schema.map(
                "Spend by source: turn, later subagent, worker, ...",
                "^.+$",
                Schema.number("US dollars spent by that source.")))
        .required(
            "tokens",
            Schema.object()
                .required("input", Schema.integer("Input tokens."))
                .required("output", Schema.integer("Output tokens."))
                .required("cache_read", Schema.integer("Cache-read tokens."))
                .required("cache_write", Schema.integer("Cache-write tokens."))
                .build())
        .required("records", Schema.integer("How many cost records."))
        .build();
  }

  static Map<String, Object> budgetSchema(String what) {
    return Schema.object()
        .description(what)
        .required(
            "cap_usd",
            Schema.nullable(Schema.number("The cap in US dollars; null when none is set.")))
        .required(
            "remaining_usd",
            Schema.nullable(
                Schema.number(
                    "What remains before turns are refused (the least that the overall and"
                        + " the project's caps leave); null without a cap.")))
        .build();
  }

  ToolSpec spec() {
    return ToolSpec.builder(NAME, this::handle)
        .title("Query costs and budgets")
        .description(
            "Reports what the agent server's sessions have spent today and this month (in the"
                + " budgets' time zone): US dollars, the API/plan split, the breakdown by source and"
                + " token use; and each budget cap with what remains. Caps block: a turn that would"
                + " start over one is refused. With projectId only that project is counted and its"
                + " own caps apply. Read-only.")
        .input(
            Schema.object()
                .optional("projectId", Schema.string("Count only this project.", 1, 128))
                .build())
        .output(
            Schema.object()
                .required(
                    "project", Schema.nullable(Schema.string("The project counted; null for all.")))
                .required("timezone", Schema.string("The zone days and months are counted in."))
                .required("today", spendSchema("Today's spend."))
                .required("month", spendSchema("This month's spend."))
                .required("daily", budgetSchema("The daily cap."))
                .required("monthly", budgetSchema("The monthly cap."))
                .build())
        .hints(ToolHints.readOnlyLocal())
        .blocking()
        .build();
  }

  private Result handle(ToolCall call) {
    String project = call.arguments(Arguments.class).projectId();
    Budgets caps = budgets.get();
    Budgets.Periods p = caps.periods(clock);
    var dayStart = p.dayStart();
    var dayEnd = p.dayEnd();
    var monthStart = p.monthStart();
    var monthEnd = p.monthEnd();
    Spend day = spend(costs.between(dayStart, dayEnd, project), dayStart, dayEnd);
    Spend month = spend(costs.between(monthStart, monthEnd, project), monthStart, monthEnd);
    Budget daily = budget(caps.dailyUsd(), costs.between(dayStart, dayEnd, null).usd());
    Budget monthly = budget(caps.monthlyUsd(), costs.between(monthStart, monthEnd, null).usd());
    if (project != null && caps.projects().containsKey(project)) {
      // Both caps block a project's turns: what remains is the least either leaves.
      Budgets.Cap cap = caps.projects().get(project);
      daily = tighter(budget(cap.dailyUsd(), day.usd()), daily);
      monthly = tighter(budget(cap.monthlyUsd(), month.usd()), monthly);
    }
    return new Result(project, caps.zone().getId(), day, month, daily, monthly);
  }

  private static Budget budget(Double cap, double spent) {
    return new Budget(cap, cap == null ? null : Math.max(0, cap - spent));
  }

  /** The project's own cap (the overall one without it), with the least remaining of the two. */
  private static Budget tighter(Budget own, Budget overall) {
    if (own.capUsd() == null) {
      return overall;
    }
    if (overall.capUsd() == null) {
      return own;
    }
    return new Budget(own.capUsd(), Math.min(own.remainingUsd(), overall.remainingUsd()));
  }

  private static Spend spend(Costs.Totals totals, java.time.Instant from, java.time.Instant to) {
    return new Spend(
        from.toString(),
        to.toString(),
        totals.usd(),
        totals.apiUsd(),
        totals.planUsd(),
        totals.bySource(),
        new Tokens(
            totals.inputTokens(),
            totals.outputTokens(),
            totals.cacheReadTokens(),
            totals.cacheWriteTokens()),
        totals.records());
  }
}
