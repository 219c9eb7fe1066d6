package dev.cortex.server.plugins;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cortex.base.Json;
import dev.cortex.storage.Area;
import dev.cortex.storage.Migration;
import dev.cortex.storage.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import tools.jackson.core.type.TypeReference;

/**
 * Which plugins the sessions of an environment get, and what a person confirmed each one adds. An
 * environment is a session's project; sessions without one are in {@link #DEFAULT}. A plugin is
 * used as confirmed: once its {@code mcp.json} differs from the one confirmed (its hash), it is
 * held back until a person confirms it again.
 */
public final class PluginAssignments {
  /** The environment of sessions without a project. */
  public static final String DEFAULT = "default";

  /** An environment's name: a project's name. */
  public static final Pattern ENVIRONMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}");

  public static final String ACTIVE = "active";
  public static final String HELD = "held";
  public static final String MISSING = "missing";

  private PluginAssignments() {}

  /** The {@code plugins} area of the database. */
  public static Area area() {
    return Area.of(
        "plugins",
        Migration.sql(
            1,
            """
            CREATE TABLE plugin_assignments (
              plugin_id TEXT NOT NULL,
              environment TEXT NOT NULL,
              confirmed_hash TEXT,
              confirmed_servers TEXT NOT NULL,
              confirmed_by TEXT NOT NULL,
              confirmed_at TEXT NOT NULL,
              PRIMARY KEY (plugin_id, environment)
            );
            """));
  }

  /**
   * A plugin assigned to an environment.
   *
   * @param confirmedHash the hash of the {@code mcp.json} confirmed (null: it had none)
   * @param confirmedServers what its servers were, as shown when it was confirmed
   * @param confirmedBy how it was confirmed: {@code terminal} or {@code --yes}
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Assignment(
      String pluginId,
      String environment,
      String confirmedHash,
      List<PluginServer.Summary> confirmedServers,
      String confirmedBy,
      Instant confirmedAt) {
    public Assignment {
      Objects.requireNonNull(pluginId, "pluginId");
      Objects.requireNonNull(environment, "environment");
      confirmedServers = List.copyOf(confirmedServers);
    }

    /**
     * Where it stands against the package as it is now ({@code plugin}, null when gone): {@link
     * #ACTIVE}, {@link #HELD} (what it adds changed since it was confirmed) or {@link #MISSING}.
     */
    public String state(Plugin plugin) {
      if (plugin == null || !plugin.usable()) {
        return MISSING;
      }
      return Objects.equals(confirmedHash, plugin.mcpHash()) ? ACTIVE : HELD;
    }
  }

  /** The environment of a session of {@code project} (null: none). */
  public static String environmentOf(String project) {
    return project == null || project.isBlank() ? DEFAULT : project;
  }

  /** Records {@code assignment}, replacing an earlier one of the plugin in that environment. */
  public static void put(Connection c, Assignment a) throws SQLException {
    Sql.update(
        c,
        """
        INSERT INTO plugin_assignments
          (plugin_id, environment, confirmed_hash, confirmed_servers, confirmed_by, confirmed_at)
        VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (plugin_id, environment) DO UPDATE SET
          confirmed_hash = excluded.confirmed_hash,
          confirmed_servers = excluded.confirmed_servers,
          confirmed_by = excluded.confirmed_by,
          confirmed_at = excluded.confirmed_at
        """,
        a.pluginId(),
        a.environment(),
        a.confirmedHash(),
        Json.write(a.confirmedServers()),
        a.confirmedBy(),
        a.confirmedAt());
  }

  /** Removes the plugin from the environment: whether it was assigned there. */
  public static boolean remove(Connection c, String pluginId, String environment)
      throws SQLException {
    return Sql.update(
            c,
            "DELETE FROM plugin_assignments WHERE plugin_id = ? AND environment = ?",
            pluginId,
            environment)
        > 0;
  }

  /** Every assignment, by plugin and environment. */
  public static List<Assignment> all(Connection c) throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM plugin_assignments ORDER BY plugin_id, environment",
        PluginAssignments::row);
  }

  /** The assignments of one environment, by plugin. */
  public static List<Assignment> of(Connection c, String environment) throws SQLException {
    return Sql.query(
        c,
        "SELECT * FROM plugin_assignments WHERE environment = ? ORDER BY plugin_id",
        PluginAssignments::row,
        environment);
  }

  private static Assignment row(ResultSet rs) throws SQLException {
    return new Assignment(
        rs.getString("plugin_id"),
        rs.getString("environment"),
        rs.getString("confirmed_hash"),
        Json.mapper()
            .readValue(
                rs.getString("confirmed_servers"),
                new TypeReference<List<PluginServer.Summary>>() {}),
        rs.getString("confirmed_by"),
        Sql.instant(rs.getString("confirmed_at")));
  }
}
