package dev.cortex.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The temporary directories the in-process harnesses work in. */
final class Scratch {
  private Scratch() {}

  /** Deletes {@code dir} and everything in it; reports a failure on {@code err}, never throws. */
  static void delete(Path dir, PrintStream err) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(path);
      }
    } catch (IOException e) {
      err.println("bench: could not delete " + dir + ": " + e.getMessage());
    }
  }
}
