package dev.cortex.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Describes the machine and the harness JVM, so figures can be read in context. */
final class Environment {
  private Environment() {}

  /** The JVM running the harness (the client side of every measurement). */
  static String client() {
    return "Java "
        + Runtime.version()
        + " ("
        + System.getProperty("java.vm.name")
        + "), "
        + System.getProperty("java.home");
  }

  /** The options the harness JVM was started with. */
  static String jvmFlags() {
    return String.join(
        " ", java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments());
  }

  /**
   * A directory and the type of its file system (e.g. tmpfs, ext4), which the figures depend on.
   */
  static String fileSystem(Path dir) {
    try {
      return dir + " (" + Files.getFileStore(dir).type() + ")";
    } catch (IOException e) {
      return dir.toString();
    }
  }

  /** Operating system, processor count and, on Linux, the processor model. */
  static String host() {
    String host =
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch")
            + ", "
            + Runtime.getRuntime().availableProcessors()
            + " CPUs";
    String model = cpuModel();
    return model.isEmpty() ? host : host + ", " + model;
  }

  /**
   * The 1, 5 and 15 minute load averages on Linux ("?" elsewhere): other work on the machine skews
   * the figures.
   */
  static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
      return fields.length >= 3 ? String.join(" ", fields[0], fields[1], fields[2]) : "?";
    } catch (IOException e) {
      return "?";
    }
  }

  private static String cpuModel() {
    Path cpuinfo = Path.of("/proc/cpuinfo");
    if (!Files.isReadable(cpuinfo)) {
      return "";
    }
    try (Stream<String> lines = Files.lines(cpuinfo)) {
      return lines
          .filter(line -> line.startsWith("model name"))
          .map(line -> line.substring(line.indexOf(':') + 1).strip())
          .findFirst()
          .orElse("");
    } catch (IOException e) {
      return "";
    }
  }
}
