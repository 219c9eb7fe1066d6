package dev.cortex.core;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.GroupDescriptor;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.server.client.AgentServerClient;
import java.time.Clock;
import java.util.List;

/**
 * The {@code core} group: remote machine operations, the clock and subagent delegation. Loaded by
 * every session with a non-empty composition, subagents included. The remote tools reach devices
 * through the agent server's webhook.
 */
public final class CoreGroup {
  public static final String NAME = "core";
  public static final String SERVER_KEY = "cortex-core";

  public static final GroupDescriptor DESCRIPTOR =
      new GroupDescriptor(
          NAME,
          SERVER_KEY,
          "Remote machines, the clock, and subagent delegation.",
          "mcp-config-core.json");

  private CoreGroup() {}

  /**
   * The group for a server whose home is {@code home}, reaching devices through {@code
   * agentServer}.
   */
  public static CapabilityGroup create(CortexHome home, AgentServerClient agentServer) {
    return create(home, agentServer, Clock.systemUTC(), java.util.Map.of(), List.of());
  }

  /**
   * The group for a server whose home is {@code home} and whose environment is {@code env} (the
   * models subagents may use: {@code CORTEX_SUBAGENT_*_MODELS}).
   */
  public static CapabilityGroup create(
      CortexHome home, AgentServerClient agentServer, java.util.Map<String, String> env) {
    return create(home, agentServer, Clock.systemUTC(), env, List.of());
  }

  /**
   * The group as {@link #create(CortexHome, AgentServerClient, java.util.Map)} makes it, with the
   * roles of {@code cortex.toml}'s {@code [agents]} ({@link AgentsTable}).
   */
  public static CapabilityGroup create(
      CortexHome home,
      AgentServerClient agentServer,
      java.util.Map<String, String> env,
      List<dev.cortex.protocol.webhook.SubagentRoles.Role> configured) {
    return create(home, agentServer, Clock.systemUTC(), env, configured);
  }

  /** The group as {@link #create(CortexHome, AgentServerClient)} makes it, on {@code clock}. */
  static CapabilityGroup create(CortexHome home, AgentServerClient agentServer, Clock clock) {
    return create(home, agentServer, clock, java.util.Map.of(), List.of());
  }

  static CapabilityGroup create(
      CortexHome home,
      AgentServerClient agentServer,
      Clock clock,
      java.util.Map<String, String> env,
      List<dev.cortex.protocol.webhook.SubagentRoles.Role> configured) {
    java.util.List<dev.cortex.mcp.tool.ToolSpec> delegation =
        new SubagentTools(
                agentServer,
                dev.cortex.protocol.webhook.SubagentRoles.load(home.configDir(), configured),
                env)
            .specs();
    Remote remote = new Remote(agentServer, clock);
    RemoteWrite write = new RemoteWrite(remote);
    RemoteSearch search = new RemoteSearch(remote);
    RemoteJob jobs = new RemoteJob(remote);
    return DESCRIPTOR
        .group(
            List.of(
                new RemoteBash(remote, new JobWake(agentServer, clock)).spec(),
                new RemoteRead(remote).spec(),
                write.write(),
                write.edit(),
                search.glob(),
                search.grep(),
                jobs.spec(),
                jobs.kill(),
                CurrentTime.spec(),
                delegation.get(0),
                delegation.get(1)))
        .withLeadNote(DeviceCatalogue.note(home.root().resolve(Machines.FILE)))
        .withInstructions(INSTRUCTIONS);
  }

  /** How an agent uses the group, for the server's instructions. */
  static final String INSTRUCTIONS =
      "core: the remote tools act on devices registered with the agent server (cortex server),"
          + " each call naming its device (the list is in remote_bash's description). Read, write"
          + " and edit files with remote_read, remote_write and remote_edit, find them with"
          + " remote_glob and search them with remote_grep, rather than through shell commands;"
          + " run commands with remote_bash, and long work with run_in_background, then follow it"
          + " with remote_job (and stop it with remote_job_kill). Follow the AGENTS.md text that comes with a file. current_time gives"
          + " the time in any zone. agent delegates self-contained work to subagents (one,"
          + " several at once, or a chain); agent_stop stops one.";
}
