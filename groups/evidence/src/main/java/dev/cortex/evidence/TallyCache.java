package dev.cortex.evidence;

import dev.cortex.evidence.Records.Claim;
import dev.cortex.evidence.Records.ClaimTallies;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.storage.Sql;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The claims and tallies reviews last read, kept for as long as the database is unchanged: no
 * commit by another connection ({@code PRAGMA data_version}, which also sees other processes) and
 * no row changed through this one ({@code total_changes()}) but the reviews' own snapshots. Any
 * other write, to any table, drops every entry; so a review after a new insert reads afresh.
 *
 * <p>The check costs two values in the claim's own query, read in the review's transaction, so that
 * what it finds and what it reads are one snapshot. Safe across threads.
 */
final class TallyCache {
  /** Claims kept, the least recently reviewed dropped first. */
  static final int CLAIMS = 32;

  /** The claim's query of {@link Ledger#claim}, with the database's change counters. */
  static final String CLAIM_SQL =
      """
      SELECT claim_id, project_id, statement, created_at,
        total_changes(), (SELECT data_version FROM pragma_data_version)
      FROM evidence_claims WHERE claim_id = ? AND project_id = ?""";

  private final Map<String, ClaimTallies> claims =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ClaimTallies> eldest) {
          return size() > CLAIMS;
        }
      };

  /** The connection and its counters when the entries were valid. */
  private Connection connection;

  private long changes = -1;
  private long dataVersion = -1;

  /** What one claim's row says, with the counters read alongside. */
  private record Row(Claim claim, long changes, long dataVersion) {}

  /**
   * The claim and the tallies of its evidence, as {@link Ledger#tallies}({@link Ledger#claim})
   * reads them: from the cache when nothing changed since they were read, else from the database.
   * Fails with INVALID_REFERENCE unless the claim is the project's. Call it before writing in the
   * transaction.
   */
  ClaimTallies tallies(Connection c, String projectId, String claimId) throws SQLException {
    Row row =
        Sql.one(
            c,
            CLAIM_SQL,
            rs ->
                new Row(
                    new Claim(
                        rs.getString(1),
                        rs.getString(2),
                        rs.getString(3),
                        List.of(),
                        Sql.instant(rs.getString(4))),
                    rs.getLong(5),
                    rs.getLong(6)),
            claimId,
            projectId);
    if (row == null) {
      throw ToolException.invalidReference(
          "No claim '" + claimId + "' in project '" + projectId + "'.");
    }
    synchronized (this) {
      if (c != connection || row.changes() != changes || row.dataVersion() != dataVersion) {
        claims.clear();
        connection = c;
        changes = row.changes();
        dataVersion = row.dataVersion();
      }
      ClaimTallies kept = claims.get(claimId);
      if (kept != null) {
        return kept;
      }
    }
    ClaimTallies read = Ledger.tallies(c, Ledger.withCriteria(c, row.claim()));
    synchronized (this) {
      if (c == connection && row.changes() == changes && row.dataVersion() == dataVersion) {
        claims.put(claimId, read);
      }
    }
    return read;
  }

  /**
   * Counts rows the caller just changed through {@code c} that no claim's tallies depend on (a
   * review's snapshot), so that they do not drop the entries.
   */
  synchronized void wrote(Connection c, int rows) {
    if (c == connection) {
      changes += rows;
    }
  }
}
