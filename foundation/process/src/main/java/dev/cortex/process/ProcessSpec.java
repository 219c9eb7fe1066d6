package dev.cortex.process;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What to run and how.
 *
 * @param command the program and its arguments; a program without a path separator is looked up on
 *     the {@code PATH} of {@code environment}
 * @param directory the working directory, or null for this process's own
 * @param environment the program's complete environment: nothing is inherited
 * @param stdin bytes written to standard input, which is then closed; null closes it at once
 * @param timeout how long the process may run before its whole group is ended, or null for no limit
 * @param headBytes how many of the first bytes of each output stream are kept
 * @param tailBytes how many of the last bytes of each output stream are kept
 * @param killGroupOnExit whether the process group is ended as soon as its leader exits, so that no
 *     background child outlives it
 * @param stdinOpen whether standard input stays open after {@code stdin} for {@link
 *     RunningProcess#stdin()} (a conversation over stdio)
 * @param followDescendants whether the leader's descendants that start sessions of their own (and
 *     so leave its group) are followed by ancestry and ended with the group (see {@link Lineage})
 * @param outputDrain null to read output for at most a second once the group has ended (what is not
 *     read by then is dropped); else read it to its end however long the listener takes, for at
 *     most this long, stopping once no output came for a second (a descendant that left the group
 *     may hold the pipes open)
 */
public record ProcessSpec(
    List<String> command,
    Path directory,
    Map<String, String> environment,
    byte[] stdin,
    Duration timeout,
    int headBytes,
    int tailBytes,
    boolean killGroupOnExit,
    boolean stdinOpen,
    boolean followDescendants,
    Duration outputDrain) {

  /** Bytes of each stream's head kept unless the builder says otherwise: 1 MiB. */
  public static final int DEFAULT_HEAD_BYTES = 1 << 20;

  /** Bytes of each stream's tail kept unless the builder says otherwise: 1 MiB. */
  public static final int DEFAULT_TAIL_BYTES = 1 << 20;

  /** The most that head and tail together may keep of one stream: 1 GiB. */
  public static final int MAX_CAPTURE_BYTES = 1 << 30;

  public ProcessSpec {
    Objects.requireNonNull(command, "command");
    command = List.copyOf(command);
    if (command.isEmpty() || command.get(0).isEmpty()) {
      throw new IllegalArgumentException("command needs a program");
    }
    for (String arg : command) {
      if (arg.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("command arguments must not contain NUL");
      }
    }
    Objects.requireNonNull(environment, "environment");
    for (Map.Entry<String, String> entry : environment.entrySet()) {
      String name = Objects.requireNonNull(entry.getKey(), "environment name");
      String value = Objects.requireNonNull(entry.getValue(), "value of " + name);
      if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("not an environment variable name: '" + name + "'");
      }
      if (value.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("the value of " + name + " must not contain NUL");
      }
    }
    environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    stdin = stdin == null ? null : stdin.clone();
    if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
    if (outputDrain != null && (outputDrain.isNegative() || outputDrain.isZero())) {
      throw new IllegalArgumentException("outputDrain must be positive, got " + outputDrain);
    }
    if (headBytes < 0 || tailBytes < 0) {
      throw new IllegalArgumentException("headBytes and tailBytes must not be negative");
    }
    if ((long) headBytes + tailBytes > MAX_CAPTURE_BYTES) {
      throw new IllegalArgumentException(
          "headBytes + tailBytes must not exceed " + MAX_CAPTURE_BYTES);
    }
  }

  @Override
  public byte[] stdin() {
    return stdin == null ? null : stdin.clone();
  }

  /** Starts a spec with its required parts: the command and its complete environment. */
  public static Builder builder(List<String> command, Map<String, String> environment) {
    return new Builder(command, environment);
  }

  /** Builder of a {@link ProcessSpec}; every value is checked by {@link #build()}. */
  public static final class Builder {
    private final List<String> command;
    private final Map<String, String> environment;
    private Path directory;
    private byte[] stdin;
    private Duration timeout;
    private int headBytes = DEFAULT_HEAD_BYTES;
    private int tailBytes = DEFAULT_TAIL_BYTES;
    private boolean killGroupOnExit = true;
    private boolean stdinOpen;
    private boolean followDescendants;
    private Duration outputDrain;

    private Builder(List<String> command, Map<String, String> environment) {
      this.command = command;
      this.environment = environment;
    }

    /** The working directory (default: this process's). */
    public Builder directory(Path value) {
      this.directory = value;
      return this;
    }

    /** Bytes for standard input, closed after them (default: closed at once). */
    public Builder stdin(byte[] value) {
      this.stdin = value;
      return this;
    }

    /** Keeps standard input open for {@link RunningProcess#stdin()} (default: closed). */
    public Builder stdinOpen() {
      this.stdinOpen = true;
      return this;
    }

    /** Ends the whole group after this long (default: no limit). */
    public Builder timeout(Duration value) {
      this.timeout = value;
      return this;
    }

    /** How much of each stream to keep: its first and last bytes (default 1 MiB each). */
    public Builder capture(int head, int tail) {
      this.headBytes = head;
      this.tailBytes = tail;
      return this;
    }

    /**
     * Whether the group lives on when its leader exits (default: it is ended), e.g. for a command
     * that starts a background job on purpose.
     */
    public Builder keepGroupAfterExit() {
      this.killGroupOnExit = false;
      return this;
    }

    /**
     * Ends, with the group, the leader's descendants that started sessions of their own ({@code
     * setsid}), followed by ancestry where {@code /proc} exists (default: the group alone), so that
     * a program's whole process tree ends with it: a workflow step's, say.
     */
    public Builder followDescendants() {
      this.followDescendants = true;
      return this;
    }

    /**
     * Reads the output to its end once the group has ended, however long the listener takes to hear
     * it, for at most {@code bound} (default: for a second, the rest dropped), stopping once no
     * output came for a second: for a listener that records each line, so that nothing printed
     * before the exit is lost.
     */
    public Builder readOutputToEnd(Duration bound) {
      this.outputDrain = bound;
      return this;
    }

    public ProcessSpec build() {
      return new ProcessSpec(
          command,
          directory,
          environment,
          stdin,
          timeout,
          headBytes,
          tailBytes,
          killGroupOnExit,
          stdinOpen,
          followDescendants,
          outputDrain);
    }
  }
}
