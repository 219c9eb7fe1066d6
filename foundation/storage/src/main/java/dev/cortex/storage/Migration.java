package dev.cortex.storage;

import java.sql.Statement;
import java.util.Objects;

/**
 * One versioned change to an area's schema. Versions are positive and ascend within an area; a
 * migration, once released, never changes.
 *
 * @param version the version the area is at once this migration has run
 * @param step what the migration does
 */
public record Migration(int version, MigrationStep step) {
  public Migration {
    if (version < 1) {
      throw new IllegalArgumentException("migration version must be positive, got " + version);
    }
    Objects.requireNonNull(step, "step");
  }

  /**
   * A migration that runs {@code sql}, which may hold several statements separated by {@code ;}.
   */
  public static Migration sql(int version, String sql) {
    Objects.requireNonNull(sql, "sql");
    return new Migration(
        version,
        connection -> {
          try (Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
          }
        });
  }
}
