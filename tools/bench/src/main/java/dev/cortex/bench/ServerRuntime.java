package dev.cortex.bench;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What actually ran behind a server's command: launchers such as {@code bin/cortex} exec the real
 * runtime, so the child's executable and arguments show the JDK and the start-up cache in use.
 *
 * @param executable the running program, as the operating system reports it
 * @param arguments its arguments
 * @param version the first line of {@code executable --version}
 */
record ServerRuntime(String executable, List<String> arguments, String version) {

  /** Inspects a live server process. */
  static ServerRuntime of(Process process) {
    ProcessHandle.Info info = process.info();
    String executable = info.command().orElse("?");
    List<String> arguments = info.arguments().map(List::of).orElse(List.of());
    return new ServerRuntime(executable, arguments, version(executable));
  }

  /** The executable and its arguments as one line. */
  String commandLine() {
    List<String> words = new ArrayList<>();
    words.add(executable);
    words.addAll(arguments);
    return Server.quote(words);
  }

  private static String version(String executable) {
    if (executable.equals("?")) {
      return "?";
    }
    try {
      Process process =
          new ProcessBuilder(executable, "--version").redirectErrorStream(true).start();
      process.getOutputStream().close();
      String out = new String(process.getInputStream().readAllBytes(), UTF_8);
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
      return out.lines().findFirst().orElse("?").strip();
    } catch (IOException e) {
      return "? (" + e.getMessage() + ")";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "?";
    }
  }
}
