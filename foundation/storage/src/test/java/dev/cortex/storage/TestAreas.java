package dev.cortex.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Areas and queries the storage tests share. */
final class TestAreas {
  static final List<Migration> NOTES =
      List.of(
          Migration.sql(1, "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"),
          Migration.sql(2, "ALTER TABLE notes ADD COLUMN author TEXT NOT NULL DEFAULT 'unknown'"),
          Migration.sql(
              3,
              """
              CREATE TABLE note_tags (
                note_id INTEGER NOT NULL REFERENCES notes (id),
                tag TEXT NOT NULL
              );
              CREATE INDEX note_tags_by_tag ON note_tags (tag);
              """));

  private TestAreas() {}

  /** The notes area as a program that knows its first {@code versions} migrations sees it. */
  static Area notes(int versions) {
    return new Area("notes", NOTES.subList(0, versions));
  }

  static Area tags() {
    return Area.of("tags", Migration.sql(1, "CREATE TABLE tags (name TEXT PRIMARY KEY)"));
  }

  static void insertNote(Connection c, String body) throws SQLException {
    try (PreparedStatement insert = c.prepareStatement("INSERT INTO notes (body) VALUES (?)")) {
      insert.setString(1, body);
      insert.executeUpdate();
    }
  }

  static long count(Database db, String table) {
    return db.read(c -> single(c, "SELECT COUNT(*) FROM " + table));
  }

  static long single(Database db, String sql) {
    return db.read(c -> single(c, sql));
  }

  static boolean hasTable(Database db, String table) {
    return db.read(c -> tableExists(c, table));
  }

  static long single(Connection c, String sql) throws SQLException {
    try (Statement statement = c.createStatement();
        ResultSet rows = statement.executeQuery(sql)) {
      rows.next();
      return rows.getLong(1);
    }
  }

  /** Rows of {@code schema_migrations} as {@code area:version@applied_at}, in order. */
  static List<String> applied(Database db) {
    return db.read(
        c -> {
          String sql =
              "SELECT area, version, applied_at FROM schema_migrations ORDER BY area, version";
          List<String> rows = new ArrayList<>();
          try (Statement statement = c.createStatement();
              ResultSet result = statement.executeQuery(sql)) {
            while (result.next()) {
              rows.add(result.getString(1) + ":" + result.getInt(2) + "@" + result.getString(3));
            }
          }
          return rows;
        });
  }

  static boolean tableExists(Connection c, String table) throws SQLException {
    String sql = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?";
    try (PreparedStatement query = c.prepareStatement(sql)) {
      query.setString(1, table);
      try (ResultSet rows = query.executeQuery()) {
        return rows.next();
      }
    }
  }
}
