package dev.cortex.workflows.run;

import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * The process groups the running attempts of each run lead, recorded while they run: what is left
 * of them is ended before an interrupted run is resumed or cancelled.
 */
public final class RunGroups {
  private final Supplier<Database> database;

  RunGroups(Supplier<Database> database) {
    this.database = database;
  }

  /** A process group an attempt of a run leads, the step's position, and its leader's start. */
  public record Group(long groupId, int position, Instant leaderStarted) {}

  /** Records a group an attempt started, before the attempt waits for it. */
  public void record(String runId, Group group) {
    database
        .get()
        .write(
            c ->
                Sql.update(
                    c,
                    "INSERT OR REPLACE INTO workflow_run_groups (run_id, group_id, position,"
                        + " leader_started) VALUES (?,?,?,?)",
                    runId,
                    group.groupId(),
                    group.position(),
                    group.leaderStarted().toString()));
  }

  /** Forgets a group that has ended. */
  public void forget(String runId, long groupId) {
    database
        .get()
        .write(
            c ->
                Sql.update(
                    c,
                    "DELETE FROM workflow_run_groups WHERE run_id = ? AND group_id = ?",
                    runId,
                    groupId));
  }

  /** The groups recorded for {@code runId} that were not seen to end. */
  public List<Group> of(String runId) {
    return database
        .get()
        .read(
            c ->
                Sql.query(
                    c,
                    "SELECT group_id, position, leader_started FROM workflow_run_groups"
                        + " WHERE run_id = ? ORDER BY group_id",
                    rs -> new Group(rs.getLong(1), rs.getInt(2), Instant.parse(rs.getString(3))),
                    runId));
  }
}
