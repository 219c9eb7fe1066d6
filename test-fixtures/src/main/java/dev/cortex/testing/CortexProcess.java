package dev.cortex.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The built {@code cortex.jar} (the system property {@code cortex.jar}, which the build sets for
 * protocol tests) launched as a real subprocess.
 */
public final class CortexProcess {
  private CortexProcess() {}

  public static Path jar() {
    String jar = System.getProperty("cortex.jar");
    if (jar == null) {
      throw new IllegalStateException(
          "run through Maven failsafe: the cortex.jar property is not set");
    }
    return Path.of(jar);
  }

  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** The command line that runs cortex with {@code args}. */
  public static List<String> command(String... args) {
    return command(List.of(), args);
  }

  /** The command line that runs cortex with {@code args}, with extra JVM options. */
  public static List<String> command(List<String> jvmOptions, String... args) {
    List<String> command =
        new ArrayList<>(List.of(java(), "-XX:+UseSerialGC", "-Dcortex.checkOutputs=true"));
    command.addAll(jvmOptions);
    command.addAll(List.of("-jar", jar().toString()));
    command.addAll(List.of(args));
    return command;
  }

  /** An environment with CORTEX_HOME in {@code home}, a fixed zone, and no inherited selection. */
  public static Map<String, String> env(Path home) {
    Map<String, String> env = new HashMap<>(System.getenv());
    env.remove("CORTEX_MCP_BUNDLES");
    env.remove("CORTEX_MCP_TOOL_ALLOWLIST");
    env.remove("CORTEX_DATA_DIR");
    env.put("CORTEX_HOME", home.toAbsolutePath().toString());
    env.put("TZ", "America/Sao_Paulo");
    return env;
  }

  public static Process start(Map<String, String> env, String... args) throws IOException {
    return start(env, List.of(), args);
  }

  public static Process start(Map<String, String> env, List<String> jvmOptions, String... args)
      throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command(jvmOptions, args));
    builder.environment().clear();
    builder.environment().putAll(env);
    return builder.start();
  }

  /** The result of a finished cortex run. */
  public record Finished(int exitCode, String stdout, String stderr) {}

  public static Finished run(Map<String, String> env, String... args)
      throws IOException, InterruptedException {
    return runWithInput(env, "", args);
  }

  /** Runs cortex with {@code input} on its standard input, then closed. */
  public static Finished runWithInput(Map<String, String> env, String input, String... args)
      throws IOException, InterruptedException {
    Process process = start(env, args);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
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
    try (java.io.OutputStream in = process.getOutputStream()) {
      in.write(input.getBytes(StandardCharsets.UTF_8));
    } catch (IOException ignored) {
      // the program did not read it all
    }
    process.getInputStream().transferTo(out);
    int code = process.waitFor();
    errPump.join();
    return new Finished(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }
}
