package dev.cortex.cli;

import dev.cortex.cli.workflows.CliConsent;
import dev.cortex.cli.workflows.TemporalSupport;
import dev.cortex.server.client.AgentServerClient;
import dev.cortex.storage.Database;
import dev.cortex.workflows.Workflows;
import dev.cortex.workflows.consent.ConsentPolicy;
import dev.cortex.workflows.consent.ConsentSettings;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * What the commands of one process share, each built on first use: the database and the workflow
 * verbs. A server waits here for detached runs before it exits.
 */
public final class Services {
  private final Io io;
  private final Supplier<Database> database;
  private final Settings settings;
  private Workflows workflows;
  private ConsentPolicy consent;
  private AgentServerClient agentServer;

  /**
   * @throws dev.cortex.base.StartupException when cortex.toml or a setting's variable is wrong
   */
  public Services(Io io) {
    this.io = io;
    this.settings = Settings.load(io.home(), io.env());
    this.database = AllGroups.database(io, settings::synchronous);
  }

  private Services(
      Io io, Settings settings, Supplier<Database> database, AgentServerClient client) {
    this.io = io;
    this.settings = settings;
    this.database = database;
    this.agentServer = client;
  }

  /**
   * The services of a session's MCP server built inside this process (the agent server's {@code
   * api} backend): the session's environment, with this process's settings and database, and {@code
   * client} to reach the agent server's webhook.
   */
  public Services forSession(Io session, AgentServerClient client) {
    return new Services(session, settings, database, client);
  }

  public Settings settings() {
    return settings;
  }

  dev.cortex.base.CortexHome home() {
    return io.home();
  }

  java.util.Map<String, String> env() {
    return io.env();
  }

  public Supplier<Database> database() {
    return database;
  }

  /** The one client of the agent server's webhook that this process's tools share. */
  synchronized AgentServerClient agentServer() {
    if (agentServer == null) {
      agentServer = io.agentServer();
    }
    return agentServer;
  }

  /**
   * Makes these the services of {@code cortex mcp}: runs are confirmed through the MCP client's
   * elicitation or a native dialog, as the environment's settings say.
   *
   * @throws IllegalArgumentException when a confirmation setting is wrong
   */
  public Services servingMcp() {
    ConsentSettings settings = ConsentSettings.fromEnvironment(io.env());
    synchronized (this) {
      consent = settings.policy(io.env(), System.getProperty("os.name", ""));
    }
    return this;
  }

  /** How this process asks its human before a run: the MCP server's way, else the terminal's. */
  synchronized ConsentPolicy consent() {
    return consent != null ? consent : CliConsent.policy(io);
  }

  public synchronized Workflows workflows() {
    if (workflows == null) {
      workflows =
          settings.temporalEngine()
              ? Workflows.create(
                  Version.get(),
                  io.home(),
                  io.env(),
                  database,
                  Path.of("").toAbsolutePath(),
                  TemporalSupport.engines(settings.temporal(), io.env(), io.home()))
              : Workflows.embedded(
                  Version.get(), io.home(), io.env(), database, Path.of("").toAbsolutePath());
    }
    return workflows;
  }

  /** Waits for runs still going on in this process (detached ones), telling the human why. */
  public void awaitRuns() throws InterruptedException {
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
