package dev.cortex.cli;

import dev.cortex.base.CortexHome;
import dev.cortex.core.CoreGroup;
import dev.cortex.evidence.EvidenceGroup;
import dev.cortex.ext.ExtGroup;
import dev.cortex.interaction.InteractionGroup;
import dev.cortex.mcp.compose.GroupRegistry;
import dev.cortex.server.daemon.Daemon;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.storage.Area;
import dev.cortex.storage.Database;
import dev.cortex.storage.Synchronous;
import dev.cortex.web.WebGroup;
import dev.cortex.workflows.WorkflowsGroup;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/** Every capability group of this program. Add a group here and it can be selected. */
public final class AllGroups {
  private AllGroups() {}

  public static GroupRegistry registry(Io io) {
    return registry(new Services(io));
  }

  public static GroupRegistry registry(Services services) {
    Supplier<Database> database = services.database();
    GroupRegistry.Builder registry =
        GroupRegistry.builder()
            .add(
                CoreGroup.DESCRIPTOR,
                () ->
                    CoreGroup.create(
                        services.home(),
                        services.agentServer(),
                        services.env(),
                        services.settings().get(dev.cortex.core.AgentsTable.TABLE)))
            .add(
                ExtGroup.DESCRIPTOR,
                () ->
                    ExtGroup.create(
                        database,
                        () -> services.settings().get(Budgets.TABLE),
                        java.time.Clock.systemDefaultZone(),
                        services.agentServer()));
    registry.add(
        InteractionGroup.DESCRIPTOR,
        () -> InteractionGroup.create(services.agentServer(), java.time.Clock.systemUTC()));
    registry.add(WebGroup.DESCRIPTOR, () -> WebGroup.create(services.agentServer()));
    registry.add(
        dev.cortex.slack.SlackGroup.DESCRIPTOR,
        () -> dev.cortex.slack.SlackGroup.create(services.agentServer()));
    registry.add(
        dev.cortex.feishu.FeishuGroup.DESCRIPTOR,
        () -> dev.cortex.feishu.FeishuGroup.create(services.agentServer()));
    registry.add(
        dev.cortex.workers.WorkersGroup.WORKERS_DESCRIPTOR,
        () -> dev.cortex.workers.WorkersGroup.workers(services.agentServer(), services.env()));
    registry.add(
        dev.cortex.workers.WorkersGroup.REPORT_DESCRIPTOR,
        () -> dev.cortex.workers.WorkersGroup.report(services.agentServer()));
    return registry
        .add(EvidenceGroup.DESCRIPTOR, () -> EvidenceGroup.create(Version.get(), database))
        .add(
            WorkflowsGroup.DESCRIPTOR,
            () -> WorkflowsGroup.create(Version.get(), services::workflows, services.consent()))
        .defaults("cortex", EvidenceGroup.NAME, WorkflowsGroup.NAME)
        .build();
  }

  /**
   * The one database of this process, with every area's migrations, opened on first use. Nothing
   * touches the disk until a tool needs it.
   */
  public static Supplier<Database> database(Io io) {
    return database(io, () -> Settings.load(io.home(), io.env()).synchronous());
  }

  /** The same, with how commits reach the disk taken from settings already loaded. */
  static Supplier<Database> database(Io io, Supplier<Synchronous> synchronous) {
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
          List<Area> areas =
              new java.util.ArrayList<>(
                  List.of(EvidenceGroup.storageArea(), WorkflowsGroup.storageArea()));
          areas.addAll(Daemon.storageAreas());
          database = new Database(home, areas, synchronous.get());
        }
        return database;
      }
    };
  }
}
