package dev.cortex.process;

import java.time.Duration;
import java.util.Objects;

/**
 * How a process ended.
 *
 * @param exitCode the leader's exit code: 128 + the signal when a signal ended it, {@value
 *     #TIMEOUT_EXIT_CODE} when the timeout ended it
 * @param timedOut whether the timeout ended it (the whole group was ended)
 * @param terminated whether {@link RunningProcess#terminate()}, an interrupt of {@link
 *     RunningProcess#await()} or the JVM's exit ended it
 * @param stdout what was kept of standard output
 * @param stderr what was kept of standard error
 * @param elapsed from the start to the end of the leader
 */
public record ProcessResult(
    int exitCode,
    boolean timedOut,
    boolean terminated,
    Capture stdout,
    Capture stderr,
    Duration elapsed) {
  /** The exit code reported for a process its timeout ended, as {@code timeout(1)} does. */
  public static final int TIMEOUT_EXIT_CODE = 124;

  public ProcessResult {
    Objects.requireNonNull(stdout, "stdout");
    Objects.requireNonNull(stderr, "stderr");
    Objects.requireNonNull(elapsed, "elapsed");
  }
}
