package dev.cortex.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small shell in a session of its own that outlives nothing but watches everything: it signals
 * whole process groups for this JVM (the JDK cannot), tells whether a group still has members, and
 * keeps the list of live groups. When this JVM dies, however it dies ({@code kill -9} included),
 * the shell's standard input ends and it kills every group still on the list.
 */
final class Sentinel {
  private static final Logger log = LoggerFactory.getLogger(Sentinel.class);

  /** POSIX sh: dash and bash alike. Lines in: {@code add|del|TERM|KILL|probe GROUP}. */
  static final String SCRIPT =
      """
      trap '' HUP INT QUIT TERM PIPE
      g=' '
      while read -r op pg; do
        case $op in
          add) g="$g$pg " ;;
          del) case $g in *" $pg "*) g="${g%%" $pg "*} ${g#*" $pg "}" ;; esac ;;
          TERM|KILL) kill -$op -$pg 2>/dev/null ;;
          probe) if kill -0 -$pg 2>/dev/null; then echo 1; else echo 0; fi ;;
        esac
      done
      for pg in $g; do kill -KILL -$pg 2>/dev/null; done
      """;

  private final Process process;
  private final OutputStream in;
  private final BufferedReader out;
  private boolean broken;

  private Sentinel(Process process) {
    this.process = process;
    this.in = process.getOutputStream();
    this.out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  /** Starts the sentinel in a new session, or nothing when it cannot be started. */
  static Optional<Sentinel> start(Path setsid, Path shell) {
    ProcessBuilder builder =
        new ProcessBuilder(List.of(setsid.toString(), shell.toString(), "-c", SCRIPT));
    builder.environment().clear();
    builder.environment().putAll(Map.of("PATH", "/usr/bin:/bin", "LC_ALL", "C"));
    builder.redirectError(ProcessBuilder.Redirect.DISCARD);
    try {
      return Optional.of(new Sentinel(builder.start()));
    } catch (IOException e) {
      log.warn("process groups are not watched after this JVM dies: {}", e.getMessage());
      return Optional.empty();
    }
  }

  synchronized boolean add(long group) {
    return send("add " + group);
  }

  synchronized boolean remove(long group) {
    return send("del " + group);
  }

  /** Sends {@code signal} (TERM or KILL) to every member of {@code group}. */
  synchronized boolean signal(long group, String signal) {
    return send(signal + " " + group);
  }

  /**
   * Whether {@code group} has members (zombies count), or empty when the sentinel no longer
   * answers.
   */
  synchronized Optional<Boolean> probe(long group) {
    if (!send("probe " + group)) {
      return Optional.empty();
    }
    try {
      String answer = out.readLine();
      if (answer == null) {
        fail("it ended");
        return Optional.empty();
      }
      return Optional.of(answer.strip().equals("1"));
    } catch (IOException e) {
      fail(e.getMessage());
      return Optional.empty();
    }
  }

  private boolean send(String line) {
    if (broken) {
      return false;
    }
    try {
      in.write((line + "\n").getBytes(StandardCharsets.US_ASCII));
      in.flush();
      return true;
    } catch (IOException e) {
      fail(e.getMessage());
      return false;
    }
  }

  private void fail(String why) {
    broken = true;
    log.warn("the process-group sentinel stopped ({}); groups are signalled directly", why);
    process.destroyForcibly();
  }
}
