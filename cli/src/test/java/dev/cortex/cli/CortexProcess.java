package dev.cortex.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Launches the built cortex jar as a real subprocess. */
final class CortexProcess {
  private CortexProcess() {}

  static Path jar() {
    String jar = System.getProperty("cortex.jar");
    if (jar == null) {
      throw new IllegalStateException(
          "run through Maven failsafe: the cortex.jar property is not set");
    }
    return Path.of(jar);
  }

  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The command line that runs cortex with {@code args}. */
  static List<String> command(String... args) {
    return command(List.of(), args);
  }

  /** The command line that runs cortex with {@code args}, with extra JVM options. */
  static List<String> command(List<String> jvmOptions, String... args) {
    List<String> command =
        new ArrayList<>(List.of(java(), "-XX:+UseSerialGC", "-Dcortex.checkOutputs=true"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar().toString()));
    command.addAll(List.of(args));
    return command;
  }

  /** An environment with CORTEX_HOME in {@code home}, a fixed zone, and no inherited selection. */
  static Map<String, String> env(Path home) {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.remove("CORTEX_MCP_BUNDLES");
    env.remove("CORTEX_MCP_TOOL_ALLOWLIST");
    env.remove("CORTEX_DATA_DIR");
    env.put("CORTEX_HOME", home.toAbsolutePath().toString());
    env.put("TZ", "America/Sao_Paulo");
    return env;
  }

  static Process start(Map<String, String> env, String... args) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command(args));
    builder.environment().clear();
    builder.environment().putAll(env);
    return builder.start();
  }

  /** The result of a finished cortex run. */
  record Finished(int exitCode, String stdout, String stderr) {}

  static Finished run(Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    Process process = start(env, args);
    process.getOutputStream().close();
    var out = new java.io.ByteArrayOutputStream();
    var err = new java.io.ByteArrayOutputStream();
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
    process.getInputStream().transferTo(out);
    int code = process.waitFor();
    errPump.join();
    return new Finished(
        code,
        out.toString(java.nio.charset.StandardCharsets.UTF_8),
        err.toString(java.nio.charset.StandardCharsets.UTF_8));
  }
}
