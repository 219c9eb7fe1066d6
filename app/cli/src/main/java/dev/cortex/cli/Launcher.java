package dev.cortex.cli;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;

/** How MCP clients and the agent server start this installation: its launcher, else java -jar. */
public final class Launcher {
  private Launcher() {}

  /** The command and leading arguments, with absolute paths. */
  public static List<String> command(Io io) {
    String launcher = io.env("CORTEX_LAUNCHER");
    if (launcher != null && !launcher.isBlank()) {
      return List.of(Path.of(launcher).toAbsolutePath().normalize().toString());
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    try {
      Path jar =
          Path.of(Launcher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return List.of(java, "-jar", jar.toAbsolutePath().toString());
    } catch (URISyntaxException | SecurityException e) {
      return List.of("cortex");
    }
  }
}
