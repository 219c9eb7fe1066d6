package dev.cortex.evidence;

import dev.cortex.process.OutputListener;
import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A short helper command (git, a version probe), bounded in time even when it hangs, in a process
 * group of its own that ends with it.
 */
final class Command {
  /** The exit code reported when the command could not be started at all. */
  static final int NOT_STARTED = -1;

  /** The most of the combined output kept. */
  private static final int OUTPUT_LIMIT = 1024 * 1024;

  private Command() {}

  /** The exit code (or {@link #NOT_STARTED}, or -2 on time-out) and the combined output. */
  record Result(int exitCode, String output) {
    String firstLine() {
      return output.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("");
    }
  }

  static Result run(List<String> command, Path directory, Duration limit) {
    Combined output = new Combined();
    ProcessSpec spec =
        ProcessSpec.builder(command, System.getenv())
            .directory(directory)
            .timeout(limit)
            .capture(0, 0)
            .build();
    ProcessResult result;
    try {
      result = Processes.start(spec, output).await();
    } catch (IOException e) {
      return new Result(NOT_STARTED, e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(-2, "interrupted");
    }
    if (result.timedOut()) {
      return new Result(-2, command.get(0) + " did not answer within " + limit.toSeconds() + " s");
    }
    return new Result(result.exitCode(), output.text());
  }

  /** Both streams in the order their chunks arrived, as one, up to {@link #OUTPUT_LIMIT}. */
  private static final class Combined implements OutputListener {
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    @Override
    public synchronized void output(
        dev.cortex.process.StandardStream stream, byte[] chunk, int offset, int length) {
      bytes.write(chunk, offset, Math.min(length, Math.max(0, OUTPUT_LIMIT - bytes.size())));
    }

    synchronized String text() {
      return bytes.toString(StandardCharsets.UTF_8);
    }
  }
}
