package dev.cortex.workflows.run;

import dev.cortex.base.Json;
import dev.cortex.storage.Area;
import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The run index in the shared SQLite database: one row per run (what ran, status, times, cost, the
 * manifest text so that an interrupted run can be resumed) and one row per completed step (its
 * whole record, output included). A step's row is committed before the next step starts.
 */
public final class RunStore {
  private final Supplier<Database> database;
  private final RunGroups groups;

  public RunStore(Supplier<Database> database) {
    this.database = database;
    this.groups = new RunGroups(database);
  }

  /** The area to open the shared database with. */
  public static Area area() {
    return RunSchema.area();
  }

  /** Who runs a run: a process, told apart from a later one with the same pid by its start. */
  public record Owner(long pid, String started) {
    public static Owner current() {
      ProcessHandle self = ProcessHandle.current();
      return new Owner(self.pid(), startOf(self));
    }

    boolean alive() {
      Optional<ProcessHandle> handle = ProcessHandle.of(pid);
      if (handle.isEmpty() || !handle.get().isAlive()) {
        return false;
      }
      String start = startOf(handle.get());
      return started == null || start == null || started.equals(start);
    }

    private static String startOf(ProcessHandle handle) {
      return handle.info().startInstant().map(Instant::toString).orElse(null);
    }
  }

  /** A stored run: its record and the manifest text it runs. */
  public record Stored(RunRecord record, String manifest) {}

  /** Inserts a new run; false when the id is taken. */
  public boolean create(RunRecord run, String manifest, Owner owner) {
    return database
        .get()
        .write(
            c -> {
              if (Sql.one(c, "SELECT 1 FROM workflow_runs WHERE run_id = ?", rs -> 1, run.runId())
                  != null) {
                return false;
              }
              Sql.update(
                  c,
                  "INSERT INTO workflow_runs (run_id, workflow, version, source_kind, source_ref,"
                      + " source_location, parameters, status, engine, owner_pid,"
                      + " owner_started, started_at, steps_total) VALUES"
                      + " (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                  run.runId(),
                  run.workflow(),
                  run.version(),
                  run.source().kind(),
                  run.source().ref(),
                  run.source().location(),
                  Json.write(run.parameters()),
                  run.status(),
                  run.engine(),
                  owner.pid(),
                  owner.started(),
                  run.startedAt(),
                  run.stepsTotal());
              Sql.update(
                  c,
                  "INSERT INTO workflow_run_manifests (run_id, manifest) VALUES (?,?)",
                  run.runId(),
                  manifest);
              for (int position = 0; position < run.steps().size(); position++) {
                StepRecord step = run.steps().get(position);
                Sql.update(
                    c,
                    "INSERT INTO workflow_run_steps (run_id, position, step_id, record)"
                        + " VALUES (?,?,?,?)",
                    run.runId(),
                    position,
                    step.id(),
                    Json.write(step));
              }
              return true;
            });
  }

  /** Records a finished step and the run's totals so far, in one transaction. */
  public void saveStep(RunRecord run, int position) {
    StepRecord step = run.steps().get(position);
    String record = Json.write(step);
    database
        .get()
        .write(
            c -> {
              Sql.update(
                  c,
                  "INSERT OR REPLACE INTO workflow_run_steps (run_id, position, step_id, record)"
                      + " VALUES (?,?,?,?)",
                  run.runId(),
                  position,
                  step.id(),
                  record);
              totals(c, run);
              return null;
            });
  }

  /** Records the end of a run: status, end time, duration, totals, error and cancellation. */
  public void finish(RunRecord run) {
    database
        .get()
        .write(
            c -> {
              finish(c, run);
              return null;
            });
  }

  private static void finish(java.sql.Connection c, RunRecord run) throws SQLException {
    totals(c, run);
    Sql.update(
        c,
        "UPDATE workflow_runs SET status = ?, ended_at = ?, duration_ms = ?, error = ?,"
            + " cancelled = ?, cancel_request = NULL, owner_pid = NULL, owner_started = NULL"
            + " WHERE run_id = ?",
        run.status(),
        run.endedAt(),
        run.durationMs(),
        run.error() == null ? null : Json.write(run.error()),
        run.cancelled() == null ? null : Json.write(run.cancelled()),
        run.runId());
  }

  /**
   * Ends, as cancelled, a run that no process is running (its process died, or it stopped while its
   * process exits): every step saved so far is kept. False when the run is no longer interrupted or
   * running, or (for {@code running}) its owner is alive and not this process.
   */
  public boolean cancelStopped(RunRecord cancelled, int cutStep) {
    return database
        .get()
        .write(
            c -> {
              Object[] row =
                  Sql.one(
                      c,
                      "SELECT status, owner_pid, owner_started FROM workflow_runs WHERE run_id = ?",
                      rs -> new Object[] {rs.getString(1), rs.getObject(2), rs.getString(3)},
                      cancelled.runId());
              if (row == null) {
                return false;
              }
              boolean interrupted = "interrupted".equals(row[0]);
              boolean runningHere =
                  "running".equals(row[0])
                      && (row[1] == null
                          || !new Owner(((Number) row[1]).longValue(), (String) row[2]).alive()
                          || ((Number) row[1]).longValue() == ProcessHandle.current().pid());
              if (!interrupted && !runningHere) {
                return false;
              }
              if (cutStep >= 0 && cutStep < cancelled.steps().size()) {
                StepRecord step = cancelled.steps().get(cutStep);
                Sql.update(
                    c,
                    "INSERT OR REPLACE INTO workflow_run_steps (run_id, position, step_id, record)"
                        + " VALUES (?,?,?,?)",
                    cancelled.runId(),
                    cutStep,
                    step.id(),
                    Json.write(step));
              }
              finish(c, cancelled);
              return true;
            });
  }

  /** Whether {@code owner} is the process recorded as running {@code runId}. */
  public boolean ownedBy(String runId, Owner owner) {
    return Boolean.TRUE.equals(
        database
            .get()
            .read(
                c ->
                    Sql.one(
                        c,
                        "SELECT owner_pid = ? AND (owner_started IS NULL OR ? IS NULL OR"
                            + " owner_started = ?) FROM workflow_runs WHERE run_id = ?",
                        rs -> rs.getInt(1) == 1,
                        owner.pid(),
                        owner.started(),
                        owner.started(),
                        runId)));
  }

  /** Asks the process running {@code runId} to cancel it; false when the run is not running. */
  public boolean requestCancel(String runId, RunCancellation cancellation) {
    return database
        .get()
        .write(
            c ->
                Sql.update(
                        c,
                        "UPDATE workflow_runs SET cancel_request = ? WHERE run_id = ?"
                            + " AND status = 'running' AND cancel_request IS NULL",
                        Json.write(cancellation),
                        runId)
                    == 1);
  }

  /** The cancellations other processes asked for among {@code runIds}, by run id. */
  public Map<String, RunCancellation> cancelRequests(java.util.Collection<String> runIds) {
    if (runIds.isEmpty()) {
      return Map.of();
    }
    String marks = String.join(",", java.util.Collections.nCopies(runIds.size(), "?"));
    return database
        .get()
        .read(
            c -> {
              Map<String, RunCancellation> asked = new LinkedHashMap<>();
              for (String[] row :
                  Sql.query(
                      c,
                      "SELECT run_id, cancel_request FROM workflow_runs WHERE cancel_request IS"
                          + " NOT NULL AND run_id IN ("
                          + marks
                          + ")",
                      rs -> new String[] {rs.getString(1), rs.getString(2)},
                      runIds.toArray())) {
                asked.put(row[0], Json.mapper().readValue(row[1], RunCancellation.class));
              }
              return asked;
            });
  }

  /** The process groups of runs' attempts, in the same database. */
  public RunGroups groups() {
    return groups;
  }

  private static void totals(java.sql.Connection c, RunRecord run) throws SQLException {
    Sql.update(
        c,
        "UPDATE workflow_runs SET steps_completed = ?, cost_usd = ?, input_tokens = ?,"
            + " output_tokens = ?, unpriced = ? WHERE run_id = ?",
        run.stepsCompleted(),
        run.cost().usd().toPlainString(),
        run.cost().inputTokens(),
        run.cost().outputTokens(),
        run.cost().unpriced(),
        run.runId());
  }

  /**
   * Takes an interrupted or failed run over for resumption by {@code owner}; false when the run is
   * in another state (someone else resumed it first, or it succeeded).
   */
  public boolean claim(String runId, Owner owner) {
    return database
        .get()
        .write(
            c ->
                Sql.update(
                        c,
                        "UPDATE workflow_runs SET status = 'running', owner_pid = ?,"
                            + " owner_started = ?, ended_at = NULL, duration_ms = NULL,"
                            + " error = NULL, resumes = resumes + 1"
                            + " WHERE run_id = ? AND status IN ('interrupted', 'failed')",
                        owner.pid(),
                        owner.started(),
                        runId)
                    == 1);
  }

  /**
   * Marks as interrupted every running run of the embedded engine whose process is gone (it crashed
   * or was killed); returns their ids. Runs on a cluster do not depend on the process that started
   * them and are left alone.
   */
  public List<String> sweep() {
    List<String[]> running =
        database
            .get()
            .read(
                c ->
                    Sql.query(
                        c,
                        "SELECT run_id, owner_pid, owner_started FROM workflow_runs"
                            + " WHERE status = 'running' AND engine = ?",
                        rs -> new String[] {rs.getString(1), rs.getString(2), rs.getString(3)},
                        EmbeddedEngine.NAME));
    List<String> gone = new ArrayList<>();
    for (String[] row : running) {
      Owner owner = row[1] == null ? null : new Owner(Long.parseLong(row[1]), row[2]);
      if (owner == null || !owner.alive()) {
        gone.add(row[0]);
      }
    }
    if (!gone.isEmpty()) {
      database
          .get()
          .write(
              c -> {
                for (String id : gone) {
                  Sql.update(
                      c,
                      "UPDATE workflow_runs SET status = 'interrupted', owner_pid = NULL,"
                          + " owner_started = NULL WHERE run_id = ? AND status = 'running'",
                      id);
                }
                return null;
              });
    }
    return gone;
  }

  /** The run with {@code runId}, with every step (pending ones included). */
  public Optional<Stored> load(String runId) {
    return Optional.ofNullable(
        database
            .get()
            .read(
                c -> {
                  Map<String, Object> row =
                      Sql.one(
                          c, "SELECT * FROM workflow_runs WHERE run_id = ?", RunStore::row, runId);
                  if (row == null) {
                    return null;
                  }
                  Map<Integer, StepRecord> done = new LinkedHashMap<>();
                  for (Object[] step :
                      Sql.query(
                          c,
                          "SELECT position, record FROM workflow_run_steps WHERE run_id = ?"
                              + " ORDER BY position",
                          rs -> new Object[] {rs.getInt(1), rs.getString(2)},
                          runId)) {
                    done.put(
                        (Integer) step[0],
                        Json.mapper().readValue((String) step[1], StepRecord.class));
                  }
                  String manifest =
                      Sql.one(
                          c,
                          "SELECT manifest FROM workflow_run_manifests WHERE run_id = ?",
                          rs -> rs.getString(1),
                          runId);
                  return new Stored(record(row, done), manifest);
                }));
  }

  /** A filter over the run index. */
  public record Filter(String workflow, RunStatus status, Instant since, int limit) {}

  /** Runs, newest first, without their steps' records. */
  public List<RunRecord> list(Filter filter) {
    StringBuilder sql = new StringBuilder("SELECT * FROM workflow_runs WHERE 1 = 1");
    List<Object> args = new ArrayList<>();
    if (filter.workflow() != null) {
      sql.append(" AND workflow = ?");
      args.add(filter.workflow());
    }
    if (filter.status() != null) {
      sql.append(" AND status = ?");
      args.add(filter.status());
    }
    if (filter.since() != null) {
      sql.append(" AND started_at >= ?");
      args.add(filter.since().toString());
    }
    sql.append(" ORDER BY started_at DESC, run_id DESC LIMIT ?");
    args.add(filter.limit());
    return database
        .get()
        .read(
            c -> {
              List<RunRecord> runs = new ArrayList<>();
              for (Map<String, Object> row :
                  Sql.query(c, sql.toString(), RunStore::row, args.toArray())) {
                runs.add(record(row, null));
              }
              return runs;
            });
  }

  /** How many runs there are in each status. */
  public Map<String, Integer> counts() {
    return database
        .get()
        .read(
            c -> {
              Map<String, Integer> counts = new LinkedHashMap<>();
              for (RunStatus status : RunStatus.values()) {
                counts.put(status.wire(), 0);
              }
              for (Object[] row :
                  Sql.query(
                      c,
                      "SELECT status, COUNT(*) FROM workflow_runs GROUP BY status",
                      rs -> new Object[] {rs.getString(1), rs.getInt(2)})) {
                counts.put((String) row[0], (Integer) row[1]);
              }
              return counts;
            });
  }

  private static Map<String, Object> row(ResultSet rs) throws SQLException {
    Map<String, Object> row = new LinkedHashMap<>();
    int columns = rs.getMetaData().getColumnCount();
    for (int i = 1; i <= columns; i++) {
      row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
    }
    return row;
  }

  private static RunRecord record(Map<String, Object> row, Map<Integer, StepRecord> done) {
    List<StepRecord> steps = done == null ? List.of() : new ArrayList<>(done.values());
    String error = (String) row.get("error");
    String cancelled = (String) row.get("cancelled");
    return RunRecord.builder(
            (String) row.get("run_id"),
            RunStatus.fromWire((String) row.get("status")).orElse(RunStatus.INTERRUPTED))
        .workflow((String) row.get("workflow"))
        .version((String) row.get("version"))
        .source(
            new WorkflowRef(
                (String) row.get("source_kind"),
                (String) row.get("source_ref"),
                (String) row.get("source_location")))
        .parameters(Json.mapper().readTree((String) row.get("parameters")))
        .engine((String) row.get("engine"))
        .startedAt((String) row.get("started_at"))
        .ended(
            (String) row.get("ended_at"),
            row.get("duration_ms") == null ? null : ((Number) row.get("duration_ms")).longValue())
        .cost(
            new RunCost(
                new BigDecimal((String) row.get("cost_usd")),
                ((Number) row.get("input_tokens")).longValue(),
                ((Number) row.get("output_tokens")).longValue(),
                ((Number) row.get("unpriced")).intValue()))
        .stepsTotal(((Number) row.get("steps_total")).intValue())
        .stepsCompleted(((Number) row.get("steps_completed")).intValue())
        .resumes(((Number) row.get("resumes")).intValue())
        .steps(steps)
        .error(error == null ? null : Json.mapper().readValue(error, RunRecord.RunError.class))
        .cancelled(
            cancelled == null ? null : Json.mapper().readValue(cancelled, RunCancellation.class))
        .build();
  }
}
