package dev.cortex.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** What the tests ask of the operating system. */
final class Os {
  static final Duration LIMIT = Duration.ofSeconds(30);

  private Os() {}

  /** A plain environment for test commands. */
  static Map<String, String> env() {
    return Map.of("PATH", "/usr/bin:/bin", "LC_ALL", "C");
  }

  /** Whether {@code pid} is a running process (a zombie has ended). */
  static boolean running(long pid) {
    return ProcessTable.read(pid).map(e -> !e.zombie()).orElse(false);
  }

  /** Polls {@code condition} until it holds, failing after {@link #LIMIT}. */
  static boolean linux() {
    return Files.isDirectory(Path.of("/proc/self"));
  }
}
