package dev.cortex.process;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the file a command names, as {@code execvp} would with the run's own environment (the JDK
 * searches its own {@code PATH}): a name with a separator from the working directory, a bare name
 * on {@code PATH}. Failures read as the JDK's do ({@code error=2}, {@code error=13}). This is the
 * one {@code PATH} lookup of Cortex.
 */
public final class Executables {
  private Executables() {}

  /**
   * The executable {@code program} names in {@code environment}'s {@code PATH} (or, with a
   * separator, relative to {@code directory}; null: the working directory), if there is one.
   */
  public static Optional<Path> find(
      String program, Map<String, String> environment, Path directory) {
    try {
      return Optional.of(Path.of(resolve(program, environment, directory)));
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The absolute path of the executable {@code program} names.
   *
   * @throws IOException reading as the JDK's own failure to start a program: {@code error=2} when
   *     there is no such file, {@code error=13} when it is not executable
   */
  public static String resolve(String program, Map<String, String> environment, Path directory)
      throws IOException {
    try {
      if (program.contains("/")) {
        Path path = Path.of(program);
        Path absolute = path.isAbsolute() ? path : base(directory).resolve(path);
        check(program, absolute);
        return absolute.toString();
      }
      String searchPath = environment.getOrDefault("PATH", "");
      boolean denied = false;
      for (String dir : searchPath.split(File.pathSeparator, -1)) {
        Path candidate = (dir.isEmpty() ? base(directory) : Path.of(dir)).resolve(program);
        if (Files.isRegularFile(candidate)) {
          if (Files.isExecutable(candidate)) {
            return candidate.toAbsolutePath().toString();
          }
          denied = true;
        }
      }
      throw denied ? denied(program) : missing(program);
    } catch (InvalidPathException e) {
      throw missing(program);
    }
  }

  private static Path base(Path directory) {
    return directory == null ? Path.of("").toAbsolutePath() : directory.toAbsolutePath();
  }

  private static void check(String program, Path path) throws IOException {
    if (!Files.exists(path)) {
      throw missing(program);
    }
    if (Files.isDirectory(path) || !Files.isExecutable(path)) {
      throw denied(program);
    }
  }

  private static IOException missing(String program) {
    return new IOException(
        "Cannot run program \"" + program + "\": error=2, No such file or directory");
  }

  private static IOException denied(String program) {
    return new IOException("Cannot run program \"" + program + "\": error=13, Permission denied");
  }
}
