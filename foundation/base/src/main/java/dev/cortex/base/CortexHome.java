package dev.cortex.base;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Where Cortex keeps its state. Resolution follows {@code CORTEX_HOME}, else the platform's data
 * directory under the user's home ({@link #userHome}); {@code CORTEX_DATA_DIR} moves the data
 * directory alone. Nothing is created until a caller asks for a directory, and what Cortex creates
 * is readable by its owner only.
 *
 * @param root the Cortex home
 * @param dataDir where the SQLite database lives
 */
public record CortexHome(Path root, Path dataDir) {
  private static final Set<PosixFilePermission> OWNER_DIR =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> OWNER_FILE =
      PosixFilePermissions.fromString("rw-------");

  public CortexHome {
    Objects.requireNonNull(root, "root");
    Objects.requireNonNull(dataDir, "dataDir");
  }

  /** Resolves the home from the process environment and system properties. */
  public static CortexHome fromEnvironment() {
    return resolve(
        System.getenv(), System.getProperty("os.name", ""), System.getProperty("user.home"));
  }

  /**
   * Resolves the home from an environment map, an OS name and the JVM's {@code user.home}.
   *
   * @param javaUserHome the JVM's {@code user.home}, used when the environment names no home
   * @throws IllegalArgumentException when a configured directory is not an absolute path
   */
  public static CortexHome resolve(Map<String, String> env, String osName, String javaUserHome) {
    Path root = configured(env, "CORTEX_HOME");
    if (root == null) {
      root =
          platformDefault(
              env, osName.toLowerCase(Locale.ROOT), userHome(env, osName, javaUserHome));
    }
    Path data = configured(env, "CORTEX_DATA_DIR");
    return new CortexHome(root.normalize(), data == null ? root.resolve("data") : data.normalize());
  }

  /**
   * The user's home directory, by the one rule every part of Cortex follows (the default {@code
   * CORTEX_HOME}, the MCP clients' files): {@code HOME} ({@code USERPROFILE} on Windows) when it is
   * set to an absolute path, as shells and the clients themselves read it, else the JVM's {@code
   * user.home} (which comes from the password database and ignores {@code HOME}).
   */
  public static Path userHome(Map<String, String> env, String osName, String javaUserHome) {
    boolean windows = osName.toLowerCase(Locale.ROOT).contains("windows");
    String value = env.get(windows ? "USERPROFILE" : "HOME");
    if (value != null && !value.isBlank()) {
      Path path = Path.of(value);
      if (path.isAbsolute()) {
        return path;
      }
    }
    return Path.of(javaUserHome);
  }

  private static Path configured(Map<String, String> env, String name) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return null;
    }
    Path path = Path.of(value);
    if (!path.isAbsolute()) {
      throw new IllegalArgumentException(
          name + " must be an absolute directory path, got '" + value + "'");
    }
    return path;
  }

  private static Path platformDefault(Map<String, String> env, String os, Path userHome) {
    if (os.contains("mac") || os.contains("darwin")) {
      return userHome.resolve("Library").resolve("Application Support").resolve("Cortex");
    }
    if (os.contains("windows")) {
      String local = env.get("LOCALAPPDATA");
      Path base =
          local != null && !local.isBlank()
              ? Path.of(local)
              : userHome.resolve("AppData").resolve("Local");
      return base.resolve("Cortex");
    }
    String xdg = env.get("XDG_DATA_HOME");
    if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) {
      return Path.of(xdg).resolve("cortex");
    }
    return userHome.resolve(".local").resolve("share").resolve("cortex");
  }

  public Path configDir() {
    return root.resolve("config");
  }

  public Path runsDir() {
    return root.resolve("runs");
  }

  public Path workflowsDir() {
    return root.resolve("workflows");
  }

  public Path toolResultsDir() {
    return root.resolve("tmp").resolve("tool-results");
  }

  /**
   * Creates {@code dir} and any missing parents with owner-only permissions (on POSIX), leaving
   * existing directories as they are.
   */
  public static Path ensureDirectory(Path dir) {
    try {
      Path absolute = dir.toAbsolutePath();
      if (Files.isDirectory(absolute)) {
        return absolute;
      }
      Path parent = absolute.getParent();
      if (parent != null) {
        ensureDirectory(parent);
      }
      try {
        if (posix(parent)) {
          Files.createDirectory(absolute, PosixFilePermissions.asFileAttribute(OWNER_DIR));
        } else {
          Files.createDirectory(absolute);
        }
      } catch (FileAlreadyExistsException raced) {
        if (!Files.isDirectory(absolute)) {
          throw raced;
        }
      }
      return absolute;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create directory " + dir, e);
    }
  }

  /**
   * Writes a file atomically (write a sibling, then rename over) with owner-only permissions on
   * POSIX. Parents are created as by {@link #ensureDirectory}.
   */
  public static void writeAtomically(Path file, String content) {
    Path dir = ensureDirectory(file.toAbsolutePath().getParent());
    try {
      Path temp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
      try {
        if (posix(dir)) {
          Files.setPosixFilePermissions(temp, OWNER_FILE);
        }
        Files.writeString(temp, content, StandardCharsets.UTF_8);
        try {
          Files.move(
              temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temp);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static boolean posix(Path dir) {
    return dir != null
        && Files.getFileAttributeView(dir, java.nio.file.attribute.PosixFileAttributeView.class)
            != null;
  }
}
