package dev.cortex.process;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Starts programs so that nothing they start outlives them unasked: each run leads a session and
 * process group of its own (through {@code setsid}, where it exists), which is ended as a whole
 * when the run times out, is terminated or interrupted, when its leader exits (unless the spec
 * keeps the group), and when this JVM exits or dies.
 */
public final class Processes {
  private Processes() {}

  /**
   * Starts {@code spec}; {@code listener} hears its output as it arrives.
   *
   * @throws IOException when the program or the working directory does not exist, the program
   *     cannot be run, or the JVM is shutting down
   */
  public static RunningProcess start(ProcessSpec spec, OutputListener listener) throws IOException {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(listener, "listener");
    if (ProcessGroups.shuttingDown()) {
      throw new IOException("the JVM is shutting down; no process is started");
    }
    if (spec.directory() != null && !Files.isDirectory(spec.directory())) {
      throw new IOException("the working directory " + spec.directory() + " does not exist");
    }
    boolean isolated = ProcessGroups.isolated();
    List<String> command = new ArrayList<>(spec.command());
    if (isolated) {
      command.set(0, Executables.resolve(command.get(0), spec.environment(), spec.directory()));
      command = ProcessGroups.isolate(command);
    }
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().putAll(spec.environment());
    if (spec.directory() != null) {
      builder.directory(spec.directory().toFile());
    }
    Process process = builder.start();
    RunningProcess running =
        new RunningProcess(process, spec, isolated ? process.pid() : -1, listener);
    ProcessGroups.register(running);
    running.begin();
    return running;
  }

  /**
   * A program started to outlive this JVM.
   *
   * @param pid its leader's pid (its group's id)
   * @param startedAt when the leader started, as the operating system reports it
   * @param exitCode completes with the leader's exit code if it ends while this JVM runs
   */
  public record Detached(long pid, Instant startedAt, CompletableFuture<Integer> exitCode) {
    public Detached {
      Objects.requireNonNull(startedAt, "startedAt");
      Objects.requireNonNull(exitCode, "exitCode");
    }
  }

  /**
   * Starts {@code spec} so that it outlives this JVM, as a background job does: in a session of its
   * own (where {@code setsid} exists), its output and errors appended to {@code output}, standard
   * input empty, nothing captured and nothing ended when the JVM exits. End it with {@link
   * #endGroup} and what this returns. The spec's timeout, capture and stdin are not used.
   *
   * @throws IOException when the program, the directory or the output file cannot be used
   */
  public static Detached startDetached(ProcessSpec spec, java.nio.file.Path output)
      throws IOException {
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(output, "output");
    if (spec.directory() != null && !Files.isDirectory(spec.directory())) {
      throw new IOException("the working directory " + spec.directory() + " does not exist");
    }
    List<String> command = new ArrayList<>(spec.command());
    if (ProcessGroups.isolated()) {
      command.set(0, Executables.resolve(command.get(0), spec.environment(), spec.directory()));
      command = ProcessGroups.isolate(command);
    }
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().putAll(spec.environment());
    if (spec.directory() != null) {
      builder.directory(spec.directory().toFile());
    }
    builder.redirectErrorStream(true);
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(output.toFile()));
    builder.redirectInput(ProcessBuilder.Redirect.from(nullDevice()));
    Process process = builder.start();
    Instant started = process.toHandle().info().startInstant().orElseGet(Instant::now);
    return new Detached(process.pid(), started, process.onExit().thenApply(Process::exitValue));
  }

  private static java.io.File nullDevice() {
    return new java.io.File(
        System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).contains("windows")
            ? "NUL"
            : "/dev/null");
  }

  /** Whether runs get a process group of their own on this machine. */
  public static boolean groupsSupported() {
    return ProcessGroups.isolated();
  }

  /** Whether the JVM is shutting down (its live groups are being ended; nothing new starts). */
  public static boolean shuttingDown() {
    return ProcessGroups.shuttingDown();
  }

  /**
   * Ends what is left of a group recorded earlier (its id and its leader's start), perhaps by a
   * process that has died since: the whole group while its leader still runs, else the processes of
   * the session it led that started after it. TERM, then KILL after a short grace.
   *
   * @return how many processes were found and ended
   */
  public static int endGroup(long groupId, Instant leaderStart) {
    return ProcessGroups.endRecorded(groupId, Objects.requireNonNull(leaderStart, "leaderStart"));
  }
}
