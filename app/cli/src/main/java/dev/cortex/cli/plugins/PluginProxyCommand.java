package dev.cortex.cli.plugins;

import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.server.plugins.PluginAssignments;
import dev.cortex.server.plugins.link.PluginLink;
import dev.cortex.server.plugins.link.PluginProxy;
import dev.cortex.server.plugins.link.ProxySpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code cortex plugin-proxy FILE}: serves one plugin server on stdio for a session's agent, from
 * the file the agent server wrote for it (its values stay in that owner-only file). Remote servers
 * are reached without following any redirect; a server whose tools changed since a person confirmed
 * them is held back, in the database too, so the next turns leave it out.
 */
@Command(
    name = "plugin-proxy",
    hidden = true,
    description = "Serve one plugin MCP server on stdio (started by the agent server's sessions).")
public final class PluginProxyCommand implements Callable<Integer> {
  private final Io io;

  @Parameters(index = "0", paramLabel = "FILE", description = "The proxy file of the server.")
  Path file;

  public PluginProxyCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() throws InterruptedException {
    ProxySpec spec;
    try {
      spec = ProxySpec.read(file);
    } catch (IOException e) {
      io.err().println("cortex plugin-proxy: " + e.getMessage() + ".");
      return CortexCommand.FAILED;
    }
    PluginLink link =
        PluginLink.of(
            spec.server(),
            System.getenv(),
            line -> io.err().println("cortex plugin-proxy: " + spec.plugin() + ": " + line));
    PluginProxy proxy =
        new PluginProxy(
            link,
            spec.plugin(),
            spec.environment(),
            spec.pins(),
            reason -> hold(spec, reason),
            note -> io.err().println("cortex plugin-proxy: " + note));
    return proxy.run(io.in(), io.out()) == 0 ? CortexCommand.OK : CortexCommand.FAILED;
  }

  private void hold(ProxySpec spec, String reason) {
    if (spec.environment() == null || spec.confirmedAt() == null) {
      return;
    }
    try {
      AllGroups.database(io)
          .get()
          .write(
              c ->
                  PluginAssignments.hold(
                      c, spec.plugin(), spec.environment(), spec.confirmedAt(), reason));
    } catch (RuntimeException e) {
      io.err()
          .println(
              "cortex plugin-proxy: "
                  + spec.plugin()
                  + " could not be recorded as held back; this session still refuses its tools.");
    }
  }
}
