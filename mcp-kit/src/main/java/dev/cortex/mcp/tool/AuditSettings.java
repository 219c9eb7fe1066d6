package dev.cortex.mcp.tool;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/**
 * The {@code [audit]} table of {@code cortex.toml}: the trail of tool calls ({@link AuditTrail}).
 *
 * <pre>
 * [audit]
 * enabled = true            # CORTEX_AUDIT=0 turns it off
 * path = "/var/log/cortex/audit.jsonl"   # default $CORTEX_HOME/logs/audit.jsonl; CORTEX_AUDIT_PATH
 * max_bytes = 10485760      # rotated past this size; CORTEX_AUDIT_MAX_BYTES
 * generations = 3           # rotated files kept (audit.jsonl.1 …); CORTEX_AUDIT_GENERATIONS
 * values = false            # true: arguments' values too, secrets taken out; CORTEX_AUDIT_VALUES
 * </pre>
 *
 * @param path the file, or null for {@code $CORTEX_HOME/logs/audit.jsonl}
 */
public record AuditSettings(
    boolean enabled, Path path, long maxBytes, int generations, boolean values) {
  public static final long DEFAULT_MAX_BYTES = 10L * 1024 * 1024;
  public static final int DEFAULT_GENERATIONS = 3;

  /** On, in the default file, with values left out. */
  public static final AuditSettings DEFAULTS =
      new AuditSettings(true, null, DEFAULT_MAX_BYTES, DEFAULT_GENERATIONS, false);

  public AuditSettings {
    if (maxBytes < 1024) {
      throw new IllegalArgumentException("maxBytes must be at least 1024: " + maxBytes);
    }
    if (generations < 1) {
      throw new IllegalArgumentException("generations must be at least 1: " + generations);
    }
  }

  public static final SettingsTable<AuditSettings> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "audit";
        }

        @Override
        public Set<String> keys() {
          return Set.of("enabled", "path", "max_bytes", "generations", "values");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of(
              "CORTEX_AUDIT", "enabled",
              "CORTEX_AUDIT_PATH", "path",
              "CORTEX_AUDIT_MAX_BYTES", "max_bytes",
              "CORTEX_AUDIT_GENERATIONS", "generations",
              "CORTEX_AUDIT_VALUES", "values");
        }

        @Override
        public AuditSettings read(TableValues values) {
          return new AuditSettings(
              values.bool("enabled", true),
              path(values),
              values.integer("max_bytes", DEFAULT_MAX_BYTES, 1024, Long.MAX_VALUE),
              (int) values.integer("generations", DEFAULT_GENERATIONS, 1, 20),
              values.bool("values", false));
        }

        private Path path(TableValues values) {
          String text = values.string("path", null);
          if (text == null) {
            return null;
          }
          Path path = Path.of(text);
          if (!path.isAbsolute()) {
            throw values.problem("path", "'" + text + "' is not an absolute path");
          }
          return path;
        }
      };
}
