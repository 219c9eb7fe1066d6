package dev.cortex.server.sessions.store;

import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/** Cost records: one per turn (later per subagent, worker and run), from the backend's usage. */
public final class Costs {
  private final Supplier<Database> database;
  private final Clock clock;

  public Costs(Supplier<Database> database, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * One cost.
   *
   * @param source what spent it: {@code turn}, later {@code subagent}, {@code worker}, ...
   * @param mode {@code api} (paid per token) or {@code plan} (a subscription)
   */
  public record Entry(
      Instant at,
      String executionId,
      String sessionId,
      String project,
      String source,
      String model,
      String mode,
      long inputTokens,
      long outputTokens,
      long cacheReadTokens,
      long cacheWriteTokens,
      double usd) {}

  public void record(Entry entry) {
    database
        .get()
        .write(
            c ->
                Sql.update(
                    c,
                    """
                    INSERT INTO costs (at, execution_id, session_id, project, source, model, mode,
                      input_tokens, output_tokens, cache_read_tokens, cache_write_tokens, usd)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    entry.at() == null ? clock.instant() : entry.at(),
                    entry.executionId(),
                    entry.sessionId(),
                    entry.project(),
                    entry.source(),
                    entry.model(),
                    entry.mode(),
                    entry.inputTokens(),
                    entry.outputTokens(),
                    entry.cacheReadTokens(),
                    entry.cacheWriteTokens(),
                    entry.usd()));
  }

  /** Spend and use between two instants, overall or for one project. */
  public record Totals(
      double usd,
      double apiUsd,
      double planUsd,
      long inputTokens,
      long outputTokens,
      long cacheReadTokens,
      long cacheWriteTokens,
      long records,
      Map<String, Double> bySource) {}

  /**
   * The spend of each period between consecutive {@code bounds} (n bounds, n - 1 periods), summed
   * as {@link #between} sums it, in one read.
   */
  public List<Double> spans(List<Instant> bounds) {
    return database
        .get()
        .read(
            c -> {
              List<Double> sums = new java.util.ArrayList<>();
              for (int i = 0; i + 1 < bounds.size(); i++) {
                sums.add(
                    Sql.one(
                        c,
                        "SELECT COALESCE(SUM(usd), 0) FROM costs WHERE at >= ? AND at < ?",
                        rs -> rs.getDouble(1),
                        bounds.get(i),
                        bounds.get(i + 1)));
              }
              return sums;
            });
  }

  /**
   * Spend in [{@code from}, {@code to}) by project, largest first; costs of no project are under
   * the null key.
   */
  public Map<String, Double> byProject(Instant from, Instant to) {
    Map<String, Double> spend = new LinkedHashMap<>();
    database
        .get()
        .read(
            c -> {
              for (List<Object> row :
                  Sql.query(
                      c,
                      "SELECT project, SUM(usd) AS usd FROM costs WHERE at >= ? AND at < ?"
                          + " GROUP BY project ORDER BY usd DESC, project",
                      rs -> java.util.Arrays.<Object>asList(rs.getString(1), rs.getDouble(2)),
                      from,
                      to)) {
                spend.put((String) row.get(0), (Double) row.get(1));
              }
              return null;
            });
    return spend;
  }

  /** Totals of the costs in [{@code from}, {@code to}), for {@code project} or all when null. */
  public Totals between(Instant from, Instant to, String project) {
    String where = "at >= ? AND at < ?" + (project == null ? "" : " AND project = ?");
    Object[] args = project == null ? new Object[] {from, to} : new Object[] {from, to, project};
    return database
        .get()
        .read(
            c -> {
              Totals sums =
                  Sql.one(
                      c,
                      "SELECT COALESCE(SUM(usd), 0), COALESCE(SUM(CASE WHEN mode = 'api' THEN usd END), 0),"
                          + " COALESCE(SUM(CASE WHEN mode = 'plan' THEN usd END), 0),"
                          + " COALESCE(SUM(input_tokens), 0), COALESCE(SUM(output_tokens), 0),"
                          + " COALESCE(SUM(cache_read_tokens), 0), COALESCE(SUM(cache_write_tokens), 0),"
                          + " COUNT(*) FROM costs WHERE "
                          + where,
                      rs ->
                          new Totals(
                              rs.getDouble(1),
                              rs.getDouble(2),
                              rs.getDouble(3),
                              rs.getLong(4),
                              rs.getLong(5),
                              rs.getLong(6),
                              rs.getLong(7),
                              rs.getLong(8),
                              Map.of()),
                      args);
              Map<String, Double> bySource = new LinkedHashMap<>();
              for (List<Object> row :
                  Sql.query(
                      c,
                      "SELECT source, SUM(usd) FROM costs WHERE "
                          + where
                          + " GROUP BY source ORDER BY source",
                      rs -> List.<Object>of(rs.getString(1), rs.getDouble(2)),
                      args)) {
                bySource.put((String) row.get(0), (Double) row.get(1));
              }
              return new Totals(
                  sums.usd(),
                  sums.apiUsd(),
                  sums.planUsd(),
                  sums.inputTokens(),
                  sums.outputTokens(),
                  sums.cacheReadTokens(),
                  sums.cacheWriteTokens(),
                  sums.records(),
                  bySource);
            });
  }
}
