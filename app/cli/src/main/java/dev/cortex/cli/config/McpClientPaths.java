package dev.cortex.cli.config;

import dev.cortex.base.CortexHome;
import dev.cortex.cli.Io;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * Where a person's MCP clients keep their files: the operating system, the home directory, the
 * environment (APPDATA, XDG_CONFIG_HOME) and the directory a project scope means.
 */
record McpClientPaths(Os os, Path home, Map<String, String> env, Path workDir) {

  /** The operating systems on which MCP clients keep their files in different places. */
  enum Os {
    LINUX,
    MACOS,
    WINDOWS;

    static Os of(String osName) {
      String name = osName.toLowerCase(Locale.ROOT);
      if (name.startsWith("windows")) {
        return WINDOWS;
      }
      return name.startsWith("mac") || name.startsWith("darwin") ? MACOS : LINUX;
    }
  }

  /**
   * The surroundings of this process. The home follows the rule of {@link CortexHome#userHome}:
   * {@code HOME} (USERPROFILE on Windows) as the clients themselves read it, else the JVM's {@code
   * user.home}; the default Cortex home is found under the same one.
   */
  static McpClientPaths of(Io io) {
    String osName = System.getProperty("os.name", "");
    Path home = CortexHome.userHome(io.env(), osName, System.getProperty("user.home"));
    return new McpClientPaths(Os.of(osName), home, io.env(), Path.of("").toAbsolutePath());
  }

  /**
   * The per-user application settings directory that Electron apps (Claude Desktop, VS Code) use:
   * {@code ~/Library/Application Support} on macOS, {@code %APPDATA%} on Windows, {@code
   * $XDG_CONFIG_HOME} or {@code ~/.config} elsewhere.
   */
  Path appData() {
    return switch (os) {
      case MACOS -> home.resolve("Library").resolve("Application Support");
      case WINDOWS -> absolute("APPDATA", home.resolve("AppData").resolve("Roaming"));
      case LINUX -> absolute("XDG_CONFIG_HOME", home.resolve(".config"));
    };
  }

  private Path absolute(String variable, Path otherwise) {
    String value = env.get(variable);
    if (value == null || value.isBlank()) {
      return otherwise;
    }
    Path path = Path.of(value);
    return path.isAbsolute() ? path : otherwise;
  }
}
