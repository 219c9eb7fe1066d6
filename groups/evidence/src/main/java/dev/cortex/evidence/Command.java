package dev.cortex.evidence;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A short helper command (git, a version probe), bounded in time even when it hangs. */
final class Command {
  /** The exit code reported when the command could not be started at all. */
  static final int NOT_STARTED = -1;

  private Command() {}

  /** The exit code (or {@link #NOT_STARTED}, or -2 on time-out) and the combined output. */
  record Result(int exitCode, String output) {
    String firstLine() {
      return output.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
    }
  }

  static Result run(List<String> command, Path directory, Duration limit) {
    Process process;
    try {
      process =
          new ProcessBuilder(command)
              .directory(directory.toFile())
              .redirectErrorStream(true)
              .start();
    } catch (IOException e) {
      return new Result(NOT_STARTED, e.getMessage());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Thread reader =
        new Thread(
            () -> {
              try {
                process.getInputStream().transferTo(out);
              } catch (IOException ignored) {
                // the command went away
              }
            },
            "command-output");
    reader.setDaemon(true);
    reader.start();
    try {
      process.getOutputStream().close();
      if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        return new Result(
            -2, command.get(0) + " did not answer within " + limit.toSeconds() + " s");
      }
      reader.join(2_000);
      synchronized (out) {
        return new Result(process.exitValue(), out.toString(StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      return new Result(NOT_STARTED, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      return new Result(-2, "interrupted");
    }
  }
}
