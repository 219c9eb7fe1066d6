package dev.cortex.evidence;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * How a set of test files is run: chosen by file type (JUnit classes through Maven, {@code node
 * --test}, pytest, {@code go test}) or given as any command, which receives the files as arguments.
 *
 * @param name what the receipt records as the runner
 * @param command the command line, run in {@code directory}
 * @param versionCommand a command whose first line of output is the runner's version, or empty
 */
record TestRunner(String name, List<String> command, Path directory, List<String> versionCommand) {

  /** Thrown when no runner fits the files; the message says what to do. */
  static final class NoRunner extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoRunner(String message) {
      super(message, null, false, false);
    }
  }

  /** A runner given by the user: run through the shell with the files appended as arguments. */
  static TestRunner custom(String commandLine, Path root, List<String> files) {
    List<String> command =
        new ArrayList<>(List.of("/bin/sh", "-c", commandLine + " \"$@\"", "cortex-collect-test"));
    command.addAll(dotted(files));
    return new TestRunner(commandLine, command, root, List.of());
  }

  /** The runner for {@code files} (relative to {@code root}) by their type. */
  static TestRunner byFileType(Path root, List<String> files) {
    Set<String> types = new LinkedHashSet<>();
    for (String file : files) {
      types.add(type(file));
    }
    if (types.size() != 1 || types.contains("")) {
      throw new NoRunner(
          "No runner fits these files ("
              + String.join(", ", types)
              + "); pass --runner CMD to choose one.");
    }
    return switch (types.iterator().next()) {
      case "java" -> maven(root, files);
      case "js" -> node(root, files);
      case "py" -> pytest(root, files);
      case "go" -> go(root, files);
      default -> throw new NoRunner("No runner fits these files; pass --runner CMD to choose one.");
    };
  }

  /** {@code ./a.mjs} for {@code a.mjs}, so that no file name is read as an option. */
  private static List<String> dotted(List<String> files) {
    return files.stream().map(f -> "./" + f).toList();
  }

  private static String type(String file) {
    String name = file.toLowerCase(Locale.ROOT);
    if (name.endsWith(".java")) {
      return "java";
    }
    if (name.endsWith(".js") || name.endsWith(".mjs") || name.endsWith(".cjs")) {
      return "js";
    }
    if (name.endsWith(".py")) {
      return "py";
    }
    if (name.endsWith(".go")) {
      return "go";
    }
    return "";
  }

  private static TestRunner node(Path root, List<String> files) {
    List<String> command = new ArrayList<>(List.of("node", "--test"));
    command.addAll(dotted(files));
    return new TestRunner("node --test", command, root, List.of("node", "--version"));
  }

  private static TestRunner pytest(Path root, List<String> files) {
    List<String> command = new ArrayList<>(List.of("python3", "-m", "pytest", "-q"));
    command.addAll(dotted(files));
    return new TestRunner("pytest", command, root, List.of("python3", "-m", "pytest", "--version"));
  }

  private static TestRunner go(Path root, List<String> files) {
    Set<String> packages = new LinkedHashSet<>();
    for (String file : files) {
      Path parent = Path.of(file).getParent();
      packages.add("./" + (parent == null ? "" : parent.toString().replace('\\', '/')));
    }
    List<String> command = new ArrayList<>(List.of("go", "test"));
    command.addAll(packages);
    return new TestRunner("go test", command, root, List.of("go", "version"));
  }

  /** JUnit test classes through Maven, in the module that holds them. */
  private static TestRunner maven(Path root, List<String> files) {
    Path module = null;
    List<String> classes = new ArrayList<>();
    for (String file : files) {
      String path = file.replace('\\', '/');
      int at = path.indexOf("src/test/java/");
      if (at < 0) {
        throw new NoRunner(
            "'" + file + "' is not under src/test/java/; pass --runner CMD to choose a runner.");
      }
      Path owner = root.resolve(path.substring(0, at)).normalize();
      if (module != null && !module.equals(owner)) {
        throw new NoRunner(
            "The test classes belong to different Maven modules; collect them one module at a time.");
      }
      module = owner;
      String className =
          path.substring(at + "src/test/java/".length(), path.length() - ".java".length());
      classes.add(className.replace('/', '.'));
    }
    List<String> command =
        List.of(
            "mvn",
            "-q",
            "-B",
            "test",
            "-Dtest=" + String.join(",", classes),
            "-Dsurefire.failIfNoSpecifiedTests=true");
    return new TestRunner("maven surefire", command, module, List.of("mvn", "--version"));
  }
}
