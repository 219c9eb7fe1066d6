package dev.cortex.storage;

import dev.cortex.storage.Transaction.Mode;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings every area to its latest version, one migration per {@code BEGIN IMMEDIATE} transaction.
 * Each transaction re-reads the area's version after taking the write lock, so processes that open
 * a fresh database together apply each migration once. A database in which any area is at a newer
 * version than this program knows is refused before anything is written. Areas migrate in the order
 * they were registered.
 */
final class Migrator {
  private static final String CREATE_TABLE =
      """
      CREATE TABLE IF NOT EXISTS schema_migrations (
        area TEXT NOT NULL,
        version INTEGER NOT NULL,
        applied_at TEXT NOT NULL,
        PRIMARY KEY (area, version)
      )""";

  private final List<Area> areas;
  private final Clock clock;
  private final Path file;

  Migrator(List<Area> areas, Clock clock, Path file) {
    this.areas = areas;
    this.clock = clock;
    this.file = file;
  }

  void migrate(Connection c) {
    Map<String, Integer> versions =
        Transaction.run(c, Mode.READ, "reading schema versions", this::versions);
    for (Area area : areas) {
      refuseNewer(area, versions.get(area.name()));
    }
    for (Area area : areas) {
      for (Migration migration : area.migrations()) {
        if (migration.version() > versions.get(area.name())) {
          String action = "migrating area '" + area.name() + "' to version " + migration.version();
          Transaction.run(c, Mode.WRITE, action, x -> apply(x, area, migration));
        }
      }
    }
  }

  private Map<String, Integer> versions(Connection c) throws SQLException {
    Map<String, Integer> versions = new HashMap<>();
    for (Area area : areas) {
      versions.put(area.name(), version(c, area));
    }
    return versions;
  }

  private Void apply(Connection c, Area area, Migration migration) throws SQLException {
    try (Statement statement = c.createStatement()) {
      statement.execute(CREATE_TABLE);
    }
    int current = version(c, area);
    refuseNewer(area, current);
    if (current < migration.version()) {
      migration.step().apply(c);
      record(c, area, migration);
    }
    return null;
  }

  private void refuseNewer(Area area, int current) {
    if (current > area.latestVersion()) {
      throw new StorageException(
          String.format(
              "the database %s was written by a newer Cortex: area '%s' is at version %d, this"
                  + " Cortex knows versions up to %d; upgrade Cortex to use it",
              file, area.name(), current, area.latestVersion()));
    }
  }

  private void record(Connection c, Area area, Migration migration) throws SQLException {
    String sql = "INSERT INTO schema_migrations (area, version, applied_at) VALUES (?, ?, ?)";
    try (PreparedStatement insert = c.prepareStatement(sql)) {
      insert.setString(1, area.name());
      insert.setInt(2, migration.version());
      insert.setString(3, clock.instant().toString());
      insert.executeUpdate();
    }
  }

  /** The highest version applied to {@code area}, or 0 when none (or no table) exists yet. */
  private static int version(Connection c, Area area) throws SQLException {
    if (!tableExists(c)) {
      return 0;
    }
    String sql = "SELECT COALESCE(MAX(version), 0) FROM schema_migrations WHERE area = ?";
    try (PreparedStatement query = c.prepareStatement(sql)) {
      query.setString(1, area.name());
      try (ResultSet rows = query.executeQuery()) {
        rows.next();
        return rows.getInt(1);
      }
    }
  }

  private static boolean tableExists(Connection c) throws SQLException {
    String sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'";
    try (Statement statement = c.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      return rows.next();
    }
  }
}
