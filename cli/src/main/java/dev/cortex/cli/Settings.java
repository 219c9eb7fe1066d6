package dev.cortex.cli;

import dev.cortex.mcp.CortexHome;
import dev.cortex.mcp.StartupException;
import dev.cortex.storage.Synchronous;
import dev.cortex.workflows.temporal.TemporalSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * The user's settings: {@code $CORTEX_HOME/config/cortex.toml}, then environment variables over it.
 * A mistake in either stops the command with a message naming the file (or variable) and the key.
 * The file is read only when it exists, so an installation without one starts as fast as before.
 *
 * <pre>
 * [workflows]
 * engine = "temporal"            # or "embedded" (the default)
 *
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
 *
 * [storage]
 * synchronous = "FULL"           # or "NORMAL" (the default); CORTEX_SQLITE_SYNCHRONOUS wins
 * </pre>
 */
record Settings(String engine, TemporalSettings temporal, Synchronous synchronous) {
  static final String FILE = "cortex.toml";
  static final String EMBEDDED = "embedded";
  static final String TEMPORAL = "temporal";

  private static final Set<String> TABLES = Set.of("workflows", "temporal", "storage");
  private static final Set<String> STORAGE_KEYS = Set.of("synchronous");
  private static final Set<String> WORKFLOW_KEYS = Set.of("engine");
  private static final Set<String> TEMPORAL_KEYS =
      Set.of(
          "address",
          "namespace",
          "task_queue",
          "tls",
          "tls_cert",
          "tls_key",
          "tls_ca",
          "api_key_env",
          "heartbeat_timeout");

  static final Settings DEFAULTS =
      new Settings(EMBEDDED, TemporalSettings.DEFAULTS, Synchronous.NORMAL);

  /** The variables that override the file, each with the key it sets. */
  private static final Map<String, String> VARIABLES =
      Map.of(
          "CORTEX_WORKFLOWS_ENGINE", "engine",
          "CORTEX_TEMPORAL_ADDRESS", "address",
          "CORTEX_TEMPORAL_NAMESPACE", "namespace",
          "CORTEX_TEMPORAL_TASK_QUEUE", "task_queue",
          "CORTEX_TEMPORAL_TLS", "tls",
          "CORTEX_TEMPORAL_TLS_CERT", "tls_cert",
          "CORTEX_TEMPORAL_TLS_KEY", "tls_key",
          "CORTEX_TEMPORAL_TLS_CA", "tls_ca",
          "CORTEX_TEMPORAL_API_KEY_ENV", "api_key_env",
          "CORTEX_TEMPORAL_HEARTBEAT_TIMEOUT", "heartbeat_timeout");

  /**
   * The settings of {@code home} with {@code env} over them. Without a file or a variable nothing
   * is parsed (start-up stays as fast as without settings).
   */
  static Settings load(CortexHome home, Map<String, String> env) {
    Path file = home.configDir().resolve(FILE);
    boolean hasFile = Files.isRegularFile(file);
    if (!hasFile && !overridden(env)) {
      return DEFAULTS;
    }
    Builder builder = new Builder(file.getParent());
    if (hasFile) {
      builder.file(file);
    }
    builder.environment(env);
    return builder.build();
  }

  private static boolean overridden(Map<String, String> env) {
    for (String variable : VARIABLES.keySet()) {
      if (env.containsKey(variable)) {
        return true;
      }
    }
    return false;
  }

  boolean temporalEngine() {
    return engine.equals(TEMPORAL);
  }

  /** Settings as they are read, one small method per key. */
  private static final class Builder {
    private final Path configDir;
    private String engine = EMBEDDED;
    private String address = TemporalSettings.DEFAULT_ADDRESS;
    private String namespace = TemporalSettings.DEFAULT_NAMESPACE;
    private String taskQueue = TemporalSettings.DEFAULT_TASK_QUEUE;
    private boolean tls;
    private Path tlsCert;
    private Path tlsKey;
    private Path tlsCa;
    private String apiKeyEnv;
    private Duration heartbeatTimeout = TemporalSettings.DEFAULT_HEARTBEAT_TIMEOUT;
    private Synchronous synchronous = Synchronous.NORMAL;
    private String where = "the defaults";

    Builder(Path configDir) {
      this.configDir = configDir;
    }

    void file(Path file) {
      JsonNode tree = read(file);
      where = file.toString();
      for (Map.Entry<String, JsonNode> table : tree.properties()) {
        if (!TABLES.contains(table.getKey()) || !table.getValue().isObject()) {
          throw new StartupException(
              file
                  + ": unknown table or key '"
                  + table.getKey()
                  + "' (known tables: [workflows],"
                  + " [temporal], [storage])");
        }
        for (Map.Entry<String, JsonNode> entry : table.getValue().properties()) {
          String key = "[" + table.getKey() + "] " + entry.getKey();
          Set<String> known =
              switch (table.getKey()) {
                case "workflows" -> WORKFLOW_KEYS;
                case "storage" -> STORAGE_KEYS;
                default -> TEMPORAL_KEYS;
              };
          if (!known.contains(entry.getKey())) {
            throw new StartupException(
                file
                    + ": unknown key "
                    + key
                    + " (known: "
                    + String.join(", ", sorted(known))
                    + ")");
          }
          set(file + ": " + key, entry.getKey(), entry.getValue());
        }
      }
    }

    private static JsonNode read(Path file) {
      try {
        JsonNode tree =
            new tools.jackson.dataformat.toml.TomlMapper()
                .readTree(Files.readString(file, StandardCharsets.UTF_8));
        return tree == null
            ? tools.jackson.databind.node.JsonNodeFactory.instance.objectNode()
            : tree;
      } catch (IOException e) {
        throw new StartupException("cannot read " + file + ": " + e.getMessage());
      } catch (JacksonException e) {
        throw new StartupException(file + " is not valid TOML: " + e.getOriginalMessage());
      }
    }

    void environment(Map<String, String> env) {
      VARIABLES.forEach((variable, key) -> override(env, variable, key));
    }

    private void override(Map<String, String> env, String variable, String key) {
      String value = env.get(variable);
      if (value == null || value.isBlank()) {
        return;
      }
      JsonNode node =
          key.equals("tls") && (value.equals("true") || value.equals("false"))
              ? tools.jackson.databind.node.BooleanNode.valueOf(value.equals("true"))
              : tools.jackson.databind.node.StringNode.valueOf(value);
      set(variable, key, node);
    }

    private void set(String source, String key, JsonNode value) {
      switch (key) {
        case "engine" -> engine = engine(source, value);
        case "address" -> address = text(source, value);
        case "namespace" -> namespace = text(source, value);
        case "task_queue" -> taskQueue = text(source, value);
        case "tls" -> tls = bool(source, value);
        case "tls_cert" -> tlsCert = path(source, value);
        case "tls_key" -> tlsKey = path(source, value);
        case "tls_ca" -> tlsCa = path(source, value);
        case "api_key_env" -> apiKeyEnv = variableName(source, value);
        case "heartbeat_timeout" -> heartbeatTimeout = duration(source, value);
        case "synchronous" -> synchronous = synchronous(source, value);
        default -> throw new IllegalStateException("no setting " + key);
      }
    }

    private static String engine(String source, JsonNode value) {
      String engine = text(source, value);
      if (!engine.equals(EMBEDDED) && !engine.equals(TEMPORAL)) {
        throw new StartupException(
            source + ": '" + engine + "' is not an engine; use \"embedded\" or \"temporal\"");
      }
      return engine;
    }

    private static Synchronous synchronous(String source, JsonNode value) {
      try {
        return Synchronous.parse(source, text(source, value));
      } catch (IllegalArgumentException e) {
        throw new StartupException(e.getMessage());
      }
    }

    private static String text(String source, JsonNode value) {
      if (!value.isString() || value.asString().isBlank()) {
        throw new StartupException(source + ": expected a non-empty string");
      }
      return value.asString().strip();
    }

    private static boolean bool(String source, JsonNode value) {
      if (!value.isBoolean()) {
        throw new StartupException(source + ": expected true or false");
      }
      return value.asBoolean();
    }

    private Path path(String source, JsonNode value) {
      Path path = configDir.resolve(text(source, value));
      if (!Files.isReadable(path)) {
        throw new StartupException(source + ": cannot read " + path);
      }
      return path;
    }

    private static String variableName(String source, JsonNode value) {
      String name = text(source, value);
      if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
        throw new StartupException(source + ": '" + name + "' is not an environment variable name");
      }
      return name;
    }

    private static Duration duration(String source, JsonNode value) {
      String text = text(source, value);
      java.util.regex.Matcher matcher =
          java.util.regex.Pattern.compile("([0-9]{1,9})(ms|s|m|h)").matcher(text);
      if (!matcher.matches()) {
        throw new StartupException(
            source + ": '" + text + "' is not a duration such as 500ms, 30s, 5m or 1h");
      }
      long amount = Long.parseLong(matcher.group(1));
      return switch (matcher.group(2)) {
        case "ms" -> Duration.ofMillis(amount);
        case "s" -> Duration.ofSeconds(amount);
        case "m" -> Duration.ofMinutes(amount);
        default -> Duration.ofHours(amount);
      };
    }

    Settings build() {
      try {
        return new Settings(
            engine,
            new TemporalSettings(
                address,
                namespace,
                taskQueue,
                tls,
                tlsCert,
                tlsKey,
                tlsCa,
                apiKeyEnv,
                heartbeatTimeout),
            synchronous);
      } catch (IllegalArgumentException e) {
        throw new StartupException("Temporal settings (" + where + "): " + e.getMessage());
      }
    }

    private static java.util.List<String> sorted(Set<String> keys) {
      return keys.stream().sorted().toList();
    }
  }
}
