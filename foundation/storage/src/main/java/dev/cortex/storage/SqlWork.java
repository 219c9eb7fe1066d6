package dev.cortex.storage;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Work done inside one transaction of a {@link Database}. The connection belongs to the database:
 * do not close it, commit, roll back or change its auto-commit mode.
 *
 * @param <T> what the work returns
 */
@FunctionalInterface
public interface SqlWork<T> {
  T run(Connection connection) throws SQLException;
}
