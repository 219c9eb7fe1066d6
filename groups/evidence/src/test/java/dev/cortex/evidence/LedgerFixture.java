package dev.cortex.evidence;

import dev.cortex.base.Json;
import dev.cortex.evidence.Inputs.CriterionInput;
import dev.cortex.storage.Database;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/** A clock and IDs the storage tests control, and the queries they share. */
final class LedgerFixture {
  private LedgerFixture() {}

  static final List<String> TABLES =
      List.of(
          "evidence_projects",
          "evidence_claims",
          "evidence_criteria",
          "evidence_records",
          "evidence_assumptions",
          "evidence_assumption_events",
          "evidence_reviews",
          "evidence_test_runs",
          "evidence_tallies");

  /** A clock that stands still until a test moves it. */
  static final class ManualClock extends Clock {
    private Instant now;

    ManualClock(Instant start) {
      this.now = start;
    }

    /** Moves the clock on and returns the new time. */
    Instant advance(Duration step) {
      now = now.plus(step);
      return now;
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      throw new UnsupportedOperationException("the test clock is UTC");
    }
  }

  /** Hands out queued IDs first, then {@code id-0001}, {@code id-0002}, … */
  static final class Ids implements Supplier<String> {
    private final Deque<String> queued = new ArrayDeque<>();
    private int next;

    Ids queue(String... ids) {
      queued.addAll(List.of(ids));
      return this;
    }

    @Override
    public String get() {
      return queued.isEmpty() ? String.format("id-%04d", ++next) : queued.removeFirst();
    }
  }

  static CriterionInput required(String key) {
    return new CriterionInput(key, "what satisfies " + key, true);
  }

  static CriterionInput optional(String key) {
    return new CriterionInput(key, "what satisfies " + key, false);
  }

  static Records.Evidence evidence(
      String projectId,
      String claimId,
      String criterionId,
      Relation relation,
      Origin origin,
      Instant now) {
    return new Records.Evidence(
        null,
        projectId,
        claimId,
        criterionId,
        "observed " + relation.wire(),
        relation,
        origin,
        SourceType.TEST,
        "mvn test",
        null,
        null,
        null,
        now);
  }

  /** The project's context with every collection, as JSON. */
  static JsonNode context(Database db, String projectId, int limit) {
    return Json.tree(
        db.read(c -> ContextReader.read(c, projectId, ContextReader.COLLECTIONS, limit)));
  }

  /** The values of {@code field} in a context collection, in the order returned. */
  static List<String> ids(JsonNode context, String collection, String field) {
    List<String> ids = new ArrayList<>();
    for (JsonNode entry : context.path(collection)) {
      ids.add(entry.path(field).asString());
    }
    return ids;
  }

  /** Row counts of every evidence table, by table. */
  static Map<String, Long> rowCounts(Database db) {
    return db.read(
        c -> {
          Map<String, Long> counts = new LinkedHashMap<>();
          for (String table : TABLES) {
            counts.put(table, single(c, "SELECT COUNT(*) FROM " + table));
          }
          return counts;
        });
  }

  static long single(Database db, String sql) {
    return db.read(c -> single(c, sql));
  }

  static long single(Connection c, String sql) throws SQLException {
    try (Statement statement = c.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  static List<String> strings(Database db, String sql) {
    return db.read(
        c -> {
          List<String> values = new ArrayList<>();
          try (Statement statement = c.createStatement();
              ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
              values.add(rows.getString(1));
            }
          }
          return values;
        });
  }

  /** Rows of {@code schema_migrations} for the evidence area as {@code version@applied_at}. */
  static List<String> migrations(Database db) {
    return strings(
        db,
        "SELECT version || '@' || applied_at FROM schema_migrations WHERE area = 'evidence' ORDER BY version");
  }

  static boolean hasTable(Database db, String table) {
    return single(
            db,
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '" + table + "'")
        == 1;
  }
}
