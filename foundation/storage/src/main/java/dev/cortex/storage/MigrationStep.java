package dev.cortex.storage;

import java.sql.Connection;
import java.sql.SQLException;

/** Changes the schema or data of one area; runs inside the transaction of its {@link Migration}. */
@FunctionalInterface
public interface MigrationStep {
  void apply(Connection connection) throws SQLException;
}
