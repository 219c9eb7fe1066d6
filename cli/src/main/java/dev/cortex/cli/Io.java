package dev.cortex.cli;

import dev.cortex.mcp.CortexHome;
import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/** The process's surroundings, injected so that commands run in-process in tests. */
record Io(InputStream in, PrintStream out, PrintStream err, Map<String, String> env) {

  String env(String name) {
    return env.get(name);
  }

  CortexHome home() {
    return CortexHome.resolve(
        env, System.getProperty("os.name", ""), System.getProperty("user.home"));
  }
}
