package dev.cortex.storage;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Small JDBC helpers for the repositories of every area: binding, fixed-width timestamps, row
 * mapping. Enums bind as their lower-case name, instants as fixed-width UTC text, booleans as 0/1.
 */
public final class Sql {
  private Sql() {}

  /** UTC with milliseconds, fixed width, so that text order is time order. */
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  public static String stamp(Instant instant) {
    return instant == null ? null : STAMP.format(instant);
  }

  public static Instant instant(String text) {
    return text == null ? null : Instant.parse(text);
  }

  /** Maps one row. */
  @FunctionalInterface
  public interface Row<T> {
    T map(ResultSet rs) throws SQLException;
  }

  public static int update(Connection c, String sql, Object... args) throws SQLException {
    try (PreparedStatement ps = prepare(c, sql, args)) {
      return ps.executeUpdate();
    }
  }

  public static <T> List<T> query(Connection c, String sql, Row<T> row, Object... args)
      throws SQLException {
    try (PreparedStatement ps = prepare(c, sql, args);
        ResultSet rs = ps.executeQuery()) {
      List<T> rows = new ArrayList<>();
      while (rs.next()) {
        rows.add(row.map(rs));
      }
      return rows;
    }
  }

  public static <T> T one(Connection c, String sql, Row<T> row, Object... args)
      throws SQLException {
    List<T> rows = query(c, sql, row, args);
    return rows.isEmpty() ? null : rows.get(0);
  }

  private static PreparedStatement prepare(Connection c, String sql, Object... args)
      throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql);
    for (int i = 0; i < args.length; i++) {
      Object arg = args[i];
      if (arg == null) {
        ps.setNull(i + 1, Types.NULL);
      } else if (arg instanceof Enum<?> constant) {
        ps.setString(i + 1, constant.name().toLowerCase(Locale.ROOT));
      } else if (arg instanceof Instant instant) {
        ps.setString(i + 1, stamp(instant));
      } else if (arg instanceof Boolean bool) {
        ps.setInt(i + 1, bool ? 1 : 0);
      } else {
        ps.setObject(i + 1, arg);
      }
    }
    return ps;
  }

  public static Double nullableDouble(ResultSet rs, String column) throws SQLException {
    double value = rs.getDouble(column);
    return rs.wasNull() ? null : value;
  }
}
