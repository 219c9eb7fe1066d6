package dev.cortex.process;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Finds the file a command names, as {@code execvp} would with the run's own environment (the JDK
 * searches its own {@code PATH}): a name with a separator from the working directory, a bare name
 * on {@code PATH}. Failures read as the JDK's do ({@code error=2}, {@code error=13}).
 */
final class Executables {
  private Executables() {}

  static String resolve(String program, Map<String, String> environment, Path directory)
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
