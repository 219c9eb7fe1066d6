package dev.cortex.workflows.activity;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Finds programs as a shell does: a bare name on the {@code PATH} of the environment given (not the
 * JVM's), anything with a path separator as a path.
 */
final class ProgramPath {
  static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

  private ProgramPath() {}

  static boolean isBareName(String program) {
    return !program.contains("/") && !(WINDOWS && program.contains("\\"));
  }

  /** The executable file named {@code name} in the first directory of PATH that has one. */
  static Optional<Path> onPath(String name, Map<String, String> environment) {
    String path = variable(environment, "PATH");
    if (path == null || name.isEmpty()) {
      return Optional.empty();
    }
    for (String dir : path.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      for (String candidate : candidates(name, environment)) {
        Optional<Path> found = executable(dir, candidate);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  /** Whether {@code program} is an executable regular file. */
  static boolean isExecutable(Path program) {
    return Files.isRegularFile(program) && Files.isExecutable(program);
  }

  private static Optional<Path> executable(String dir, String name) {
    try {
      Path candidate = Path.of(dir, name);
      return isExecutable(candidate) ? Optional.of(candidate) : Optional.empty();
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }

  private static List<String> candidates(String name, Map<String, String> environment) {
    if (!WINDOWS) {
      return List.of(name);
    }
    List<String> names = new ArrayList<>();
    names.add(name);
    String extensions = variable(environment, "PATHEXT");
    for (String extension : (extensions == null ? ".COM;.EXE;.BAT;.CMD" : extensions).split(";")) {
      if (!extension.isEmpty()) {
        names.add(name + extension);
      }
    }
    return names;
  }

  /** A variable by name; on Windows, where names ignore case, by any case. */
  private static String variable(Map<String, String> environment, String name) {
    String value = environment.get(name);
    if (value != null || !WINDOWS) {
      return value;
    }
    for (Map.Entry<String, String> entry : environment.entrySet()) {
      if (entry.getKey().equalsIgnoreCase(name)) {
        return entry.getValue();
      }
    }
    return null;
  }
}
