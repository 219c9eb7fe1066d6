package dev.cortex.cli.workflows;

import dev.cortex.base.StartupException;
import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import dev.cortex.workflows.temporal.TemporalSettings;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The {@code [temporal]} table of {@code cortex.toml}. It lives here rather than beside {@link
 * TemporalSettings} because cortex.jar carries the Temporal module as a resource loaded only when
 * used; the settings record alone is on the main class path.
 *
 * <pre>
 * [temporal]
 * address = "127.0.0.1:7233"
 * namespace = "default"
 * task_queue = "cortex"
 * tls = false                    # TLS with the system's CAs
 * tls_cert = "client.pem"        # mutual TLS (relative paths: from the config directory)
 * tls_key = "client.key"
 * tls_ca = "ca.pem"              # trust this CA instead of the system's
 * api_key_env = "TEMPORAL_API_KEY"
 * heartbeat_timeout = "30s"
 * </pre>
 */
public final class TemporalTable implements SettingsTable<TemporalSettings> {
  public static final TemporalTable TABLE = new TemporalTable();

  private static final Map<String, String> VARIABLES = byVariable();

  private TemporalTable() {}

  private static Map<String, String> byVariable() {
    Map<String, String> names = new LinkedHashMap<>();
    names.put("CORTEX_TEMPORAL_ADDRESS", "address");
    names.put("CORTEX_TEMPORAL_NAMESPACE", "namespace");
    names.put("CORTEX_TEMPORAL_TASK_QUEUE", "task_queue");
    names.put("CORTEX_TEMPORAL_TLS", "tls");
    names.put("CORTEX_TEMPORAL_TLS_CERT", "tls_cert");
    names.put("CORTEX_TEMPORAL_TLS_KEY", "tls_key");
    names.put("CORTEX_TEMPORAL_TLS_CA", "tls_ca");
    names.put("CORTEX_TEMPORAL_API_KEY_ENV", "api_key_env");
    names.put("CORTEX_TEMPORAL_HEARTBEAT_TIMEOUT", "heartbeat_timeout");
    return Map.copyOf(names);
  }

  @Override
  public String name() {
    return "temporal";
  }

  @Override
  public Set<String> keys() {
    return Set.copyOf(VARIABLES.values());
  }

  @Override
  public Map<String, String> variables() {
    return VARIABLES;
  }

  @Override
  public TemporalSettings read(TableValues values) {
    try {
      return new TemporalSettings(
          values.string("address", TemporalSettings.DEFAULT_ADDRESS),
          values.string("namespace", TemporalSettings.DEFAULT_NAMESPACE),
          values.string("task_queue", TemporalSettings.DEFAULT_TASK_QUEUE),
          values.bool("tls", false),
          values.readableFile("tls_cert"),
          values.readableFile("tls_key"),
          values.readableFile("tls_ca"),
          values.variableName("api_key_env"),
          values.duration("heartbeat_timeout", TemporalSettings.DEFAULT_HEARTBEAT_TIMEOUT));
    } catch (IllegalArgumentException e) {
      throw new StartupException("Temporal settings: " + e.getMessage());
    }
  }
}
