package dev.cortex.cli;

import dev.cortex.base.CortexHome;
import dev.cortex.base.settings.CortexToml;
import dev.cortex.base.settings.SettingsTable;
import dev.cortex.cli.workflows.TemporalTable;
import dev.cortex.mcp.tool.AuditSettings;
import dev.cortex.models.ModelCatalog;
import dev.cortex.server.daemon.DeviceSettings;
import dev.cortex.server.daemon.ServerSettings;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.SessionSettings;
import dev.cortex.server.waitpoints.WaitSettings;
import dev.cortex.storage.StorageSettings;
import dev.cortex.storage.Synchronous;
import dev.cortex.workflows.EngineChoice;
import dev.cortex.workflows.temporal.TemporalSettings;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * The user's settings, {@code $CORTEX_HOME/config/cortex.toml} with environment variables over it:
 * every module's table, composed here. A mistake stops the command with a message naming the file
 * and key (or the variable).
 */
public record Settings(CortexToml tables) {
  /** Every table this program knows, in the order the documentation lists them. */
  static final List<SettingsTable<?>> TABLES =
      List.of(
          EngineChoice.TABLE,
          TemporalTable.TABLE,
          StorageSettings.TABLE,
          ServerSettings.TABLE,
          DeviceSettings.TABLE,
          dev.cortex.server.workbench.UiSettings.TABLE,
          SessionSettings.TABLE,
          Budgets.TABLE,
          WaitSettings.TABLE,
          ModelCatalog.PROVIDERS_TABLE,
          ModelCatalog.MODELS_TABLE,
          AuditSettings.TABLE,
          dev.cortex.core.AgentsTable.TABLE,
          dev.cortex.server.sessions.TeamSettings.TABLE,
          dev.cortex.server.channels.slack.SlackSettings.TABLE,
          dev.cortex.server.channels.feishu.FeishuSettings.TABLE);

  /**
   * Reads the settings; the catalog's entries are checked against each other here too (a model of
   * an unknown provider stops the command), the environment's base URLs only where models are
   * called.
   *
   * @throws dev.cortex.base.StartupException naming the file and key, or the variable
   */
  public static Settings load(CortexHome home, Map<String, String> env) {
    Settings settings = new Settings(CortexToml.load(home.configDir(), env, TABLES));
    ModelCatalog.check(settings.tables());
    return settings;
  }

  /**
   * The settings of a long-lived process, starting from {@code initial} (those it started with) and
   * following the file's edits; a bad edit leaves the last good settings in force ({@link
   * LiveSettings}).
   */
  public static LiveSettings live(
      CortexHome home, Map<String, String> env, Settings initial, Clock clock) {
    return new LiveSettings(home, env, initial, clock);
  }

  public <T> T get(SettingsTable<T> table) {
    return tables.get(table);
  }

  boolean temporalEngine() {
    return get(EngineChoice.TABLE).temporal();
  }

  public TemporalSettings temporal() {
    return get(TemporalTable.TABLE);
  }

  /**
   * The models and providers: the built-ins, {@code [providers]} and {@code [models]}, and the base
   * URLs of {@code env}.
   *
   * @throws dev.cortex.base.StartupException naming a base-URL variable that is no http(s) URL
   */
  public ModelCatalog models(Map<String, String> env) {
    return ModelCatalog.of(tables, env);
  }

  /** How commits reach the disk: {@code [storage] synchronous}, or CORTEX_SQLITE_SYNCHRONOUS. */
  Synchronous synchronous() {
    return get(StorageSettings.TABLE).synchronous();
  }
}
