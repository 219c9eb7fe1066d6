package dev.cortex.cli;

import dev.cortex.base.CortexHome;
import dev.cortex.server.client.AgentServerClient;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/** The process's surroundings, injected so that commands run in-process in tests. */
public record Io(InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {

  public String env(String name) {
    return env.get(name);
  }

  /** These surroundings without the environment variable {@code name}. */
  public Io without(String name) {
    if (!env.containsKey(name)) {
      return this;
    }
    Map<String, String> kept = new java.util.HashMap<>(env);
    kept.remove(name);
    return new Io(in, out, err, Map.copyOf(kept));
  }

  /** A client of the agent server this process's environment and home describe. */
  public AgentServerClient agentServer() {
    return new AgentServerClient(env, home());
  }

  public CortexHome home() {
    return CortexHome.resolve(
        env, System.getProperty("os.name", ""), System.getProperty("user.home"));
  }
}
