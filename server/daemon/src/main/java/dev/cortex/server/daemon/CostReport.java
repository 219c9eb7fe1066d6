package dev.cortex.server.daemon;

import dev.cortex.protocol.session.Workbench;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.store.Costs;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The workbench's costs page: spend per day and per project over a period, and today's and this
 * month's spend against the caps, counted in the budgets' time zone over the same records and
 * periods as {@code cost_query}.
 */
final class CostReport {
  static final String CURRENCY = "USD";

  private final Costs costs;
  private final Supplier<Budgets> budgets;
  private final Clock clock;

  CostReport(Costs costs, Supplier<Budgets> budgets, Clock clock) {
    this.costs = costs;
    this.budgets = budgets;
    this.clock = clock;
  }

  Workbench.Costs report(int days) {
    Budgets caps = budgets.get();
    Budgets.Periods now = caps.periods(clock);
    LocalDate today = ZonedDateTime.ofInstant(now.dayStart(), caps.zone()).toLocalDate();
    LocalDate first = today.minusDays(days - 1L);
    List<Instant> bounds = new ArrayList<>(days + 1);
    for (int i = 0; i <= days; i++) {
      bounds.add(first.plusDays(i).atStartOfDay(caps.zone()).toInstant());
    }
    List<Double> spans = costs.spans(bounds);
    List<Workbench.DaySpend> perDay = new ArrayList<>(days);
    double total = 0;
    for (int i = 0; i < days; i++) {
      perDay.add(new Workbench.DaySpend(first.plusDays(i).toString(), spans.get(i)));
      total += spans.get(i);
    }
    Map<String, Double> period = costs.byProject(bounds.get(0), now.dayEnd());
    Map<String, Double> day = costs.byProject(now.dayStart(), now.dayEnd());
    Map<String, Double> month = costs.byProject(now.monthStart(), now.monthEnd());
    Set<String> projects = new LinkedHashSet<>(period.keySet());
    projects.addAll(month.keySet());
    projects.addAll(caps.projects().keySet());
    List<Workbench.ProjectSpend> perProject = new ArrayList<>();
    for (String project : projects) {
      Budgets.Cap cap = project == null ? null : caps.projects().get(project);
      perProject.add(
          new Workbench.ProjectSpend(
              project,
              period.getOrDefault(project, 0.0),
              day.getOrDefault(project, 0.0),
              month.getOrDefault(project, 0.0),
              cap == null ? null : cap.dailyUsd(),
              cap == null ? null : cap.monthlyUsd()));
    }
    double todayUsd = costs.between(now.dayStart(), now.dayEnd(), null).usd();
    double monthUsd = costs.between(now.monthStart(), now.monthEnd(), null).usd();
    return new Workbench.Costs(
        CURRENCY,
        caps.zone().getId(),
        perDay,
        perProject,
        total,
        todayUsd,
        monthUsd,
        new Workbench.Caps(
            caps.dailyUsd(),
            caps.monthlyUsd(),
            remaining(caps.dailyUsd(), todayUsd),
            remaining(caps.monthlyUsd(), monthUsd)));
  }

  private static Double remaining(Double cap, double spent) {
    return cap == null ? null : Math.max(0, cap - spent);
  }
}
