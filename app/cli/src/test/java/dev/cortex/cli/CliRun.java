package dev.cortex.cli;

import dev.cortex.testing.CortexProcess;
import java.io.IOException;

/** A finished run of the {@code cortex} CLI against a server's home, given its standard input. */
record CliRun(int exitCode, String stdout, String stderr) {

  static CliRun run(AgentServer server, String input, String... args)
      throws IOException, InterruptedException {
    CortexProcess.Finished finished = CortexProcess.runWithInput(server.env, input, args);
    return new CliRun(finished.exitCode(), finished.stdout(), finished.stderr());
  }
}
