package dev.cortex.device;

import dev.cortex.base.Cancellation;
import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.process.RunningProcess;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

/**
 * {@code bash}: a command in bash, in the device user's login environment ({@link LoginShell};
 * {@code cmd /c} on Windows) with standard error merged into standard output in order, in a process
 * group of its own. At its timeout, on cancel, or when it ends, the whole group is ended, so
 * nothing it left behind keeps running: long-lived work belongs in a background job.
 */
final class ShellAction {
  private final LoginShell shell;
  private final Path workingDirectory;
  private final int captureBytes;
  private final boolean windows;
  private final Jobs jobs;

  ShellAction(
      Map<String, String> environment,
      Path workingDirectory,
      int captureBytes,
      boolean windows,
      Jobs jobs) {
    this(LoginShell.perCommand(environment), workingDirectory, captureBytes, windows, jobs);
  }

  ShellAction(
      LoginShell shell, Path workingDirectory, int captureBytes, boolean windows, Jobs jobs) {
    this.shell = shell;
    this.workingDirectory = workingDirectory;
    this.captureBytes = captureBytes;
    this.windows = windows;
    this.jobs = jobs;
  }

  Actions.BashResult run(
      Actions.Bash params, Cancellation cancellation, BiConsumer<String, String> output)
      throws ActionException {
    if (params.command() == null || params.command().isBlank()) {
      throw ActionException.invalid("command is required.");
    }
    if (params.signal() != null && !params.background()) {
      throw ActionException.invalid("Only a background job can signal a waitpoint when it ends.");
    }
    if (params.background()) {
      if (windows) {
        throw new ActionException(
            Codes.UNSUPPORTED, "Background jobs are not supported on Windows devices yet.");
      }
      Actions.JobInfo job = jobs.start(params.command(), params.description(), params.signal());
      return new Actions.BashResult(
          0,
          "",
          0,
          false,
          false,
          false,
          0,
          "Started in the background as job "
              + job.id()
              + " (pid "
              + job.pid()
              + ")."
              + (params.signal() == null
                  ? " Ask for its status or output with remote_job."
                  : " When it ends, waitpoint "
                      + params.signal().waitpoint()
                      + " fires with its exit code and the end of its output."),
          job);
    }
    int timeout =
        params.timeoutSeconds() == 0 ? Actions.DEFAULT_TIMEOUT_SECONDS : params.timeoutSeconds();
    if (timeout < Actions.MIN_TIMEOUT_SECONDS || timeout > Actions.MAX_TIMEOUT_SECONDS) {
      throw ActionException.invalid("timeout must be 1 to 600 seconds; got " + timeout + ".");
    }
    LoginShell.Invocation bash = shell.now();
    List<String> command =
        windows
            ? List.of("cmd.exe", "/d", "/s", "/c", params.command())
            : bash.command("exec 2>&1\n" + params.command());
    AtomicLong streamable = new AtomicLong(Hub.MAX_STREAMED_CHARS);
    Output stdout = new Output("stdout", streamable, output);
    Output stderr = new Output("stderr", streamable, output);
    RunningProcess process;
    try {
      process =
          Processes.start(
              ProcessSpec.builder(command, bash.environment())
                  .directory(workingDirectory)
                  .timeout(Duration.ofSeconds(timeout))
                  .capture(captureBytes / 2, captureBytes / 2)
                  .build(),
              (stream, bytes, offset, length) ->
                  (stream == dev.cortex.process.StandardStream.STDOUT ? stdout : stderr)
                      .accept(bytes, offset, length));
    } catch (IOException e) {
      throw new ActionException(
          Codes.INTERNAL, "The shell could not be started on this device: " + e.getMessage());
    }
    ProcessResult result;
    try (Cancellation.Registration ignored = cancellation.onCancel(process::terminate)) {
      result = process.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ActionException(Codes.CANCELLED, "The command was interrupted.");
    }
    String text =
        result.stdout().text(StandardCharsets.UTF_8) + result.stderr().text(StandardCharsets.UTF_8);
    long bytes = result.stdout().totalBytes() + result.stderr().totalBytes();
    boolean cut = result.stdout().truncated() || result.stderr().truncated();
    String note = null;
    if (result.timedOut()) {
      note =
          "Timed out after "
              + timeout
              + " s: the command and everything it started were stopped (exit code "
              + Actions.TIMEOUT_EXIT_CODE
              + ").";
    } else if (result.terminated()) {
      note = "Cancelled: the command and everything it started were stopped.";
    }
    if (cut) {
      String omitted = "The middle of the output (" + bytes + " bytes in all) was left out.";
      note = note == null ? omitted : note + " " + omitted;
    }
    return new Actions.BashResult(
        result.timedOut() ? Actions.TIMEOUT_EXIT_CODE : result.exitCode(),
        text,
        bytes,
        cut,
        result.timedOut(),
        result.terminated() && !result.timedOut(),
        result.elapsed().toMillis(),
        note,
        null);
  }
}
