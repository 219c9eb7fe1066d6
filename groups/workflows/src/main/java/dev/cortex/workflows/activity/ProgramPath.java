package dev.cortex.workflows.activity;

import dev.cortex.process.Executables;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the programs of steps as the process runner will start them: through {@link Executables},
 * the one {@code PATH} lookup, over the {@code PATH} of the environment given (not the JVM's). On
 * Windows, where a bare name may leave out its extension and variable names ignore case, the names
 * {@code PATHEXT} lists are looked up too.
 */
final class ProgramPath {
  static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

  private ProgramPath() {}

  static boolean isBareName(String program) {
    return !program.contains("/") && !(WINDOWS && program.contains("\\"));
  }

  /**
   * The executable {@code program} names: a bare name on {@code environment}'s {@code PATH}, a path
   * from {@code directory} (null: the directory Cortex runs in).
   */
  static Optional<Path> find(String program, Map<String, String> environment, Path directory) {
    if (program.isEmpty()) {
      return Optional.empty();
    }
    if (!WINDOWS) {
      return Executables.find(program, environment, directory);
    }
    Map<String, String> search = new HashMap<>(environment);
    variable(environment, "PATH").ifPresent(path -> search.put("PATH", path));
    for (String name : windowsNames(program, environment)) {
      Optional<Path> found = Executables.find(name, search, directory);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  /** The names a Windows program may have: as given, then with each extension of PATHEXT. */
  private static List<String> windowsNames(String program, Map<String, String> environment) {
    if (!isBareName(program)) {
      return List.of(program.replace('\\', '/'));
    }
    List<String> names = new ArrayList<>();
    names.add(program);
    String extensions = variable(environment, "PATHEXT").orElse(".COM;.EXE;.BAT;.CMD");
    for (String extension : extensions.split(";")) {
      if (!extension.isEmpty()) {
        names.add(program + extension);
      }
    }
    return names;
  }

  /** A variable by name in any case, as Windows reads them. */
  private static Optional<String> variable(Map<String, String> environment, String name) {
    String value = environment.get(name);
    if (value != null) {
      return Optional.of(value);
    }
    return environment.entrySet().stream()
        .filter(entry -> entry.getKey().equalsIgnoreCase(name))
        .map(Map.Entry::getValue)
        .findFirst();
  }
}
