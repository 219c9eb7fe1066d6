package dev.cortex.bench;

import dev.cortex.evidence.EvidenceBenchmarkSupport.ClaimSpec;
import dev.cortex.evidence.EvidenceBenchmarkSupport.Review;
import java.time.Instant;
import java.util.List;

/**
 * Everything one run of the evidence benchmark measured. Durations are in nanoseconds, sizes in
 * bytes.
 *
 * @param fileSystem the temporary directory the databases lived in, and its file system type
 * @param claim the review fixture
 */
record EvidenceResults(
    Instant at,
    EvidenceOptions options,
    String client,
    String jvmFlags,
    String host,
    String load,
    String fileSystem,
    ClaimSpec claim,
    Storage storage,
    List<PolicyRun> policies,
    Phases phases,
    List<InsertRun> inserts) {

  /**
   * The stored review fixture.
   *
   * @param seedNanos storing its records, one Ledger.addEvidence each
   * @param pragmas the connection's settings as SQLite reports them
   * @param queryPlan SQLite's plan for the evidence query of a ledger review
   */
  record Storage(long seedNanos, long fileBytes, long walBytes, String pragmas, String queryPlan) {}

  /**
   * Reviews under one policy, with the last result of each: the pure engine; the ledger, reviewing
   * the claim again and again (the tallies from the ledger's cache); and the ledger after a write
   * each time (the policy set again), which drops the cache, so that it reads claim and tallies.
   */
  record PolicyRun(
      String policy,
      long[] pure,
      long[] ledger,
      long[] afresh,
      Review pureReview,
      Review ledgerReview,
      Review afreshReview) {}

  /**
   * A ledger review and its parts, timed in turn in each round.
   *
   * @param policy the project's policy meanwhile
   * @param nanos samples per {@link EvidenceProbe.Part}, by ordinal
   * @param snapshotBytes the size of the saved review's JSON
   */
  record Phases(String policy, long[][] nanos, int snapshotBytes) {
    long median(EvidenceProbe.Part part) {
      return Stats.of(nanos[part.ordinal()]).p50();
    }
  }

  /**
   * One insert run into a fresh database.
   *
   * @param nanos each Ledger.addEvidence call
   * @param totalNanos the whole run
   * @param fileBytes the database file at the end, connection open
   * @param walBytes its write-ahead log at the end, connection open
   * @param closedBytes the database file once closed (SQLite checkpoints the log into it)
   */
  record InsertRun(long[] nanos, long totalNanos, long fileBytes, long walBytes, long closedBytes) {

    double perSecond() {
      return nanos.length * 1e9 / totalNanos;
    }
  }
}
