package dev.cortex.cli;

import dev.cortex.testing.CortexProcess;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** A finished run of the {@code cortex} CLI against a server's home, given its standard input. */
record CliRun(int exitCode, String stdout, String stderr) {

  static CliRun run(AgentServer server, String input, String... args)
      throws IOException, InterruptedException {
    Process process = CortexProcess.start(server.env, args);
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Thread errPump =
        new Thread(
            () -> {
              try {
                process.getErrorStream().transferTo(err);
              } catch (IOException ignored) {
                // the process went away
              }
            });
    errPump.start();
    try (OutputStream in = process.getOutputStream()) {
      in.write(input.getBytes(StandardCharsets.UTF_8));
    } catch (IOException ignored) {
      // the program did not read it all
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    process.getInputStream().transferTo(out);
    int code = process.waitFor();
    errPump.join();
    return new CliRun(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
