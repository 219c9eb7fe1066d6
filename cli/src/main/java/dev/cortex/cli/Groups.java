package dev.cortex.cli;

import dev.cortex.core.CoreGroup;
import dev.cortex.evidence.EvidenceGroup;
import dev.cortex.mcp.CapabilityGroup;
import dev.cortex.mcp.CortexHome;
import dev.cortex.mcp.GroupRegistry;
import dev.cortex.storage.Database;
import dev.cortex.storage.Synchronous;
import dev.cortex.workflows.WorkflowsGroup;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/** Every capability group of this program. Add a group here and it can be selected. */
final class Groups {
  private Groups() {}

  static GroupRegistry registry(Io io) {
    return registry(new Services(io));
  }

  static GroupRegistry registry(Services services) {
    Supplier<Database> database = services.database();
    return GroupRegistry.builder()
        .add(CoreGroup.NAME, CoreGroup.SERVER_KEY, CoreGroup::create)
        .add(
            "ext",
            "cortex-core",
            () -> pending("ext", "cortex-core", "Costs, executions, context and waitpoints."))
        .add(
            "workers",
            "cortex-workers",
            () ->
                pending("workers", "cortex-workers", "Team mode: the main session's worker tools."))
        .add(
            "worker-report",
            "cortex-worker-report",
            () ->
                pending(
                    "worker-report",
                    "cortex-worker-report",
                    "Team mode: the worker's report tool."))
        .add(
            "interaction",
            "cortex-interaction-bridge",
            () ->
                pending(
                    "interaction",
                    "cortex-interaction-bridge",
                    "Questions and plan approvals for a human."))
        .add(
            "web",
            "cortex-web",
            () ->
                pending(
                    "web",
                    "cortex-web",
                    "Files, views, decisions and boards for the web workbench."))
        .add(
            "slack",
            "cortex-slack",
            () -> pending("slack", "cortex-slack", "File delivery to Slack."))
        .add(
            "feishu",
            "cortex-feishu",
            () -> pending("feishu", "cortex-feishu", "File delivery to Feishu."))
        .add(
            EvidenceGroup.NAME,
            EvidenceGroup.SERVER_KEY,
            () -> EvidenceGroup.create(Version.get(), database))
        .add(
            WorkflowsGroup.NAME,
            WorkflowsGroup.SERVER_KEY,
            () -> WorkflowsGroup.create(Version.get(), services::workflows, services.consent()))
        .defaults("cortex", EvidenceGroup.NAME, WorkflowsGroup.NAME)
        .build();
  }

  /**
   * The one database of this process, with every area's migrations, opened on first use. Nothing
   * touches the disk until a tool needs it.
   */
  static Supplier<Database> database(Io io) {
    return new Supplier<>() {
      private Database database;

      @Override
      public synchronized Database get() {
        if (database == null) {
          CortexHome home = io.home();
          if (System.getProperty("org.sqlite.tmpdir") == null) {
            // SQLite's native library is unpacked here rather than in /tmp, which may be noexec.
            Path dir = CortexHome.ensureDirectory(home.root().resolve("tmp").resolve("native"));
            System.setProperty("org.sqlite.tmpdir", dir.toString());
          }
          database =
              new Database(
                  home,
                  List.of(EvidenceGroup.storageArea(), WorkflowsGroup.storageArea()),
                  synchronous(io));
        }
        return database;
      }
    };
  }

  /**
   * How commits reach the disk: {@code CORTEX_SQLITE_SYNCHRONOUS}, else {@code [storage]
   * synchronous} of cortex.toml, else NORMAL.
   */
  private static Synchronous synchronous(Io io) {
    try {
      return Synchronous.fromEnvironment(io.env())
          .orElseGet(() -> Settings.load(io.home(), io.env()).synchronous());
    } catch (IllegalArgumentException e) {
      throw new dev.cortex.mcp.StartupException(e.getMessage());
    }
  }

  /** A group whose tools are not served by this version yet: selectable, with no tools. */
  private static CapabilityGroup pending(String name, String key, String description) {
    return CapabilityGroup.ofTools(
        name, key, description + " (no tools in this version yet)", List.of());
  }
}
