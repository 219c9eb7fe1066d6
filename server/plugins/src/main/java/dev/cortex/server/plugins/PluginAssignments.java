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
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import tools.jackson.core.type.TypeReference;

/**
 * Which plugins the sessions of an environment get, and what a person confirmed each one adds. An
 * environment is a session's project; sessions without one are in {@link #DEFAULT}. A plugin is
 * used as confirmed: once its {@code mcp.json} differs from the one confirmed (its hash), or one of
 * its servers offers tools other than those confirmed (see {@link #hold}), it is held back until a
 * person confirms it again.
 */
public final class PluginAssignments {
  /** The environment of sessions without a project. */
  public static final String DEFAULT = "default";

  /** An environment's name: a project's name. */
  public static final Pattern ENVIRONMENT = dev.cortex.protocol.session.Plugins.PROJECT;

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
            """),
        Migration.sql(
            2,
            """
            ALTER TABLE plugin_assignments ADD COLUMN confirmed_tools TEXT;
            ALTER TABLE plugin_assignments ADD COLUMN held_reason TEXT;
            """));
  }

  /**
   * A plugin assigned to an environment.
   *
   * @param confirmedHash the hash of the {@code mcp.json} confirmed (null: it had none)
   * @param confirmedServers what its servers were, as shown when it was confirmed
   * @param confirmedBy how it was confirmed: {@code terminal} or {@code --yes}
   * @param confirmedTools the tools each server listed when it was confirmed: server name to pins
   *     (tool name to a digest of its description); empty for an assignment made before tools were
   *     pinned, whose tools are then not checked
   * @param heldReason why it is held back although its {@code mcp.json} is as confirmed (its tools
   *     changed), or null
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Assignment(
      String pluginId,
      String environment,
      String confirmedHash,
      List<PluginServer.Summary> confirmedServers,
      String confirmedBy,
      Instant confirmedAt,
      Map<String, Map<String, String>> confirmedTools,
      String heldReason) {
    public Assignment {
      Objects.requireNonNull(pluginId, "pluginId");
      Objects.requireNonNull(environment, "environment");
      confirmedServers = List.copyOf(confirmedServers);
      confirmedTools = confirmedTools == null ? Map.of() : Map.copyOf(confirmedTools);
    }

    /**
     * Where it stands against the package as it is now ({@code plugin}, null when gone): {@link
     * #ACTIVE}, {@link #HELD} (what it adds changed since it was confirmed) or {@link #MISSING}.
     */
    public String state(Plugin plugin) {
      if (plugin == null || !plugin.usable()) {
        return MISSING;
      }
      return Objects.equals(confirmedHash, plugin.mcpHash()) && heldReason == null ? ACTIVE : HELD;
    }

    /** Why it is held back against {@code plugin} as it is now; null when it is not. */
    public String heldBecause(Plugin plugin) {
      if (!state(plugin).equals(HELD)) {
        return null;
      }
      return Objects.equals(confirmedHash, plugin.mcpHash())
          ? heldReason
          : "its mcp.json changed since it was confirmed";
    }
  }

  /** An assignment as it may be shown, with where it stands against the package now. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record View(
      String pluginId,
      String environment,
      String state,
      String heldReason,
      String confirmedBy,
      Instant confirmedAt) {}

  /** The views of {@code assignments} against {@code catalog} as it is now. */
  public static List<View> views(List<Assignment> assignments, PluginCatalog catalog) {
    java.util.Map<String, Plugin> plugins = new java.util.HashMap<>();
    return assignments.stream()
        .map(
            a -> {
              Plugin plugin =
                  plugins.computeIfAbsent(a.pluginId(), id -> catalog.get(id).orElse(null));
              return new View(
                  a.pluginId(),
                  a.environment(),
                  a.state(plugin),
                  a.heldBecause(plugin),
                  a.confirmedBy(),
                  a.confirmedAt());
            })
        .toList();
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
          (plugin_id, environment, confirmed_hash, confirmed_servers, confirmed_by, confirmed_at,
           confirmed_tools, held_reason)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (plugin_id, environment) DO UPDATE SET
          confirmed_hash = excluded.confirmed_hash,
          confirmed_servers = excluded.confirmed_servers,
          confirmed_by = excluded.confirmed_by,
          confirmed_at = excluded.confirmed_at,
          confirmed_tools = excluded.confirmed_tools,
          held_reason = excluded.held_reason
        """,
        a.pluginId(),
        a.environment(),
        a.confirmedHash(),
        Json.write(a.confirmedServers()),
        a.confirmedBy(),
        a.confirmedAt(),
        Json.write(a.confirmedTools()),
        a.heldReason());
  }

  /**
   * Holds the plugin back in {@code environment} because its tools changed since they were
   * confirmed at {@code confirmedAt} ({@code reason} says how, without a tool's text): whether this
   * changed anything (an assignment already held keeps its first reason; one confirmed again since
   * is not held by what an older check saw).
   */
  public static boolean hold(
      Connection c, String pluginId, String environment, Instant confirmedAt, String reason)
      throws SQLException {
    // Only the confirmation the caller checked against: a newer one pins other tools.
    return Sql.update(
            c,
            "UPDATE plugin_assignments SET held_reason = ? WHERE plugin_id = ? AND environment = ?"
                + " AND confirmed_at = ? AND held_reason IS NULL",
            reason,
            pluginId,
            environment,
            confirmedAt)
        > 0;
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
        Sql.instant(rs.getString("confirmed_at")),
        rs.getString("confirmed_tools") == null
            ? Map.of()
            : Json.mapper()
                .readValue(
                    rs.getString("confirmed_tools"),
                    new TypeReference<Map<String, Map<String, String>>>() {}),
        rs.getString("held_reason"));
  }
}
