package dev.cortex.cli;

import java.io.InputStream;
import java.io.PrintStream;
import java.util.Map;

/** Entry point of {@code cortex}: runs the command line and exits with its code. */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    dev.cortex.mcp.compose.StartupTrace.mark("main");
    if (args.length > 0 && args[0].equals("mcp") && System.getenv("CORTEX_NO_WARMUP") == null) {
      dev.cortex.mcp.compose.Warmup.start();
    }
    PrintStream stdout = System.out;
    // Anything a library prints by accident must not corrupt the MCP stream on stdout.
    System.setOut(System.err);
    System.exit(run(System.in, stdout, System.err, System.getenv(), args));
  }

  /**
   * Runs {@code cortex} with explicit streams and environment, for reuse in-process.
   *
   * @return 0 on success, 1 when the operation failed, 2 on bad usage or configuration
   */
  public static int run(
      InputStream in, PrintStream out, PrintStream err, Map<String, String> env, String... args) {
    return CortexCommand.execute(new Io(in, out, err, env), args);
  }
}
