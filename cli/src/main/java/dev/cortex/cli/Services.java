package dev.cortex.cli;

import dev.cortex.storage.Database;
import dev.cortex.workflows.Workflows;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * What the commands of one process share, each built on first use: the database and the workflow
 * verbs. A server waits here for detached runs before it exits.
 */
final class Services {
  private final Io io;
  private final Supplier<Database> database;
  private Workflows workflows;

  Services(Io io) {
    this.io = io;
    this.database = Groups.database(io);
  }

  Supplier<Database> database() {
    return database;
  }

  synchronized Workflows workflows() {
    if (workflows == null) {
      workflows =
          Workflows.embedded(
              Version.get(), io.home(), io.env(), database, Path.of("").toAbsolutePath());
    }
    return workflows;
  }

  /** Waits for runs still going on in this process (detached ones), telling the human why. */
  void awaitRuns() throws InterruptedException {
    Workflows built;
    synchronized (this) {
      built = workflows;
    }
    if (built != null && built.engine().busy()) {
      io.err().println("cortex: waiting for workflow runs still in progress to finish");
      built.engine().awaitIdle();
    }
  }
}
