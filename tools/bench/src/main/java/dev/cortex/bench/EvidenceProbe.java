package dev.cortex.bench;

import dev.cortex.evidence.EvidenceBenchmarkSupport;
import dev.cortex.evidence.EvidenceBenchmarkSupport.ClaimSpec;
import dev.cortex.evidence.EvidenceBenchmarkSupport.InMemoryClaim;
import dev.cortex.evidence.EvidenceBenchmarkSupport.Review;
import dev.cortex.storage.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Looks inside a ledger review: the database's settings, the evidence query's plan and the time of
 * each part of a review on its own. The SQL here copies the ledger's evidence query to time it
 * alone; the ledger's own code is what {@link EvidenceBench} measures as a whole.
 */
final class EvidenceProbe {
  /** The evidence query of {@code Ledger.reviewClaim}: counts and first IDs per group. */
  static final String EVIDENCE_QUERY = EvidenceBenchmarkSupport.TALLY_QUERY;

  private final Database database;
  private final EvidenceBenchmarkSupport ledger;
  private final ClaimSpec claim;
  private final int warmup;
  private final int repeats;
  private long sink;

  EvidenceProbe(
      Database database,
      EvidenceBenchmarkSupport ledger,
      ClaimSpec claim,
      int warmup,
      int repeats) {
    this.database = database;
    this.ledger = ledger;
    this.claim = claim;
    this.warmup = warmup;
    this.repeats = repeats;
  }

  static EvidenceResults.Storage storage(Database database, ClaimSpec claim, long seedNanos) {
    Path file = database.path();
    Path wal = file.resolveSibling(file.getFileName() + "-wal");
    String pragmas =
        database.read(
            c ->
                "journal_mode="
                    + pragma(c, "journal_mode")
                    + ", synchronous="
                    + synchronous(pragma(c, "synchronous"))
                    + ", wal_autocheckpoint="
                    + pragma(c, "wal_autocheckpoint")
                    + " pages, page_size="
                    + pragma(c, "page_size"));
    String plan = database.read(c -> plan(c, claim.id()));
    return new EvidenceResults.Storage(seedNanos, size(file), size(wal), pragmas, plan);
  }

  /**
   * Times a ledger review and its parts, all in each round, so that whatever else the machine does
   * weighs on them alike. The evaluation reviews the records just loaded, as the ledger does.
   */
  EvidenceResults.Phases phases(String policy, Supplier<Review> review) {
    Review saved = review.get();
    long[][] nanos = new long[Part.values().length][repeats];
    for (int i = -warmup; i < repeats; i++) {
      if (i == 0) {
        System.gc();
      }
      long[] round = new long[nanos.length];
      long start = System.nanoTime();
      saved = review.get();
      round[Part.REVIEW.ordinal()] = lap(start);
      start = System.nanoTime();
      InMemoryClaim loaded = ledger.load(claim.projectId(), claim.id());
      round[Part.LOAD.ordinal()] = lap(start);
      start = System.nanoTime();
      sink += EvidenceBenchmarkSupport.review(policy, loaded).status().length();
      round[Part.EVALUATE.ordinal()] = lap(start);
      start = System.nanoTime();
      sink += saved.snapshotBytes();
      round[Part.SNAPSHOT.ordinal()] = lap(start);
      round[Part.QUERY.ordinal()] = query(EVIDENCE_QUERY);
      for (int p = 0; i >= 0 && p < round.length; p++) {
        nanos[p][i] = round[p];
      }
    }
    return new EvidenceResults.Phases(policy, nanos, saved.snapshotBytes());
  }

  /** The parts of a ledger review that {@link #phases} times. */
  enum Part {
    REVIEW,
    LOAD,
    EVALUATE,
    SNAPSHOT,
    QUERY
  }

  private static long lap(long start) {
    return System.nanoTime() - start;
  }

  /** Times one run of {@code sql} in a read transaction: every row stepped, every column read. */
  private long query(String sql) {
    long start = System.nanoTime();
    sink += database.read(c -> step(c, sql));
    return lap(start);
  }

  /** Steps through the rows, reading every column as text; returns the characters read. */
  private long step(Connection c, String sql) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      ps.setString(1, claim.id());
      try (ResultSet rs = ps.executeQuery()) {
        int columns = rs.getMetaData().getColumnCount();
        long chars = 0;
        while (rs.next()) {
          for (int i = 1; i <= columns; i++) {
            String value = rs.getString(i);
            chars += value == null ? 0 : value.length();
          }
        }
        return chars;
      }
    }
  }

  private static String plan(Connection c, String claimId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("EXPLAIN QUERY PLAN " + EVIDENCE_QUERY)) {
      ps.setString(1, claimId);
      try (ResultSet rs = ps.executeQuery()) {
        List<String> steps = new ArrayList<>();
        while (rs.next()) {
          steps.add(rs.getString("detail"));
        }
        return String.join("; ", steps);
      }
    }
  }

  private static String synchronous(String level) {
    List<String> names = List.of("OFF", "NORMAL", "FULL", "EXTRA");
    try {
      return level + " (" + names.get(Integer.parseInt(level)) + ")";
    } catch (RuntimeException e) {
      return level;
    }
  }

  private static String pragma(Connection c, String name) throws SQLException {
    try (Statement statement = c.createStatement();
        ResultSet rs = statement.executeQuery("PRAGMA " + name)) {
      return rs.next() ? rs.getString(1) : "?";
    }
  }

  private static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
