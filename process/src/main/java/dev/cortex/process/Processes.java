package dev.cortex.process;

import java.io.IOException;
import java.nio.file.Files;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

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
    if (Groups.shuttingDown()) {
      throw new IOException("the JVM is shutting down; no process is started");
    }
    if (spec.directory() != null && !Files.isDirectory(spec.directory())) {
      throw new IOException("the working directory " + spec.directory() + " does not exist");
    }
    boolean isolated = Groups.isolated();
    List<String> command = new ArrayList<>(spec.command());
    if (isolated) {
      command.set(0, Executables.resolve(command.get(0), spec.environment(), spec.directory()));
      command = Groups.isolate(command);
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
    Groups.register(running);
    running.begin();
    return running;
  }

  /** Whether runs get a process group of their own on this machine. */
  public static boolean groupsSupported() {
    return Groups.isolated();
  }

  /** Whether the JVM is shutting down (its live groups are being ended; nothing new starts). */
  public static boolean shuttingDown() {
    return Groups.shuttingDown();
  }

  /**
   * Ends what is left of a group recorded earlier (its id and its leader's start), perhaps by a
   * process that has died since: the whole group while its leader still runs, else the processes of
   * the session it led that started after it. TERM, then KILL after a short grace.
   *
   * @return how many processes were found and ended
   */
  public static int endGroup(long groupId, Instant leaderStart) {
    return Groups.endRecorded(groupId, Objects.requireNonNull(leaderStart, "leaderStart"));
  }
}
