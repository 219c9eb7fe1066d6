package dev.cortex.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cortex.testing.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Descendants of a run that started a session of their own ({@code setsid}), and so left its
 * process group: they are still its descendants by ancestry, and end with a run that follows them
 * ({@code followDescendants}, as a workflow step does).
 */
class NewSessionsTest {
  @TempDir Path dir;

  @BeforeEach
  void linuxOnly() {
    assumeTrue(Os.linux() && Processes.groupsSupported(), "needs /proc and setsid");
  }

  /** A shell whose background {@code setsid sh -c 'sleep 40'} writes its pid to {@code pid}. */
  private RunningProcess start(String rest, Duration timeout) throws Exception {
    ProcessSpec.Builder spec =
        ProcessSpec.builder(
                List.of(
                    "sh", "-c", "setsid sh -c 'sleep 40' & echo $! > " + dir.resolve("pid") + rest),
                Os.env())
            .followDescendants();
    if (timeout != null) {
      spec.timeout(timeout);
    }
    return Processes.start(spec.build(), OutputListener.NONE);
  }

  /** The stray's pid, once it runs in its own session. */
  private long stray() throws Exception {
    Path file = dir.resolve("pid");
    Eventually.until(
        "the stray reported its pid",
        Os.LIMIT,
        () -> Files.exists(file) && Files.readString(file).endsWith("\n"));
    long pid = Long.parseLong(Files.readString(file).strip());
    Eventually.until(
        "the stray leads a session of its own",
        Os.LIMIT,
        () -> ProcessTable.read(pid).map(e -> e.session() == pid).orElse(false));
    return pid;
  }

  /** Whether a process of the session {@code session} still runs. */
  private static boolean sessionRuns(long session) {
    return ProcessTable.all().values().stream()
        .anyMatch(e -> e.session() == session && !e.zombie());
  }

  /** Regression: runs_cancel left a step's {@code setsid sh -c 'sleep 40' &} running. */
  @Test
  void terminate_endsADescendantThatStartedItsOwnSession() throws Exception {
    RunningProcess shell = start("; sleep 300", null);
    long stray = stray();

    shell.terminate();
    ProcessResult result = shell.await();

    assertThat(result.terminated()).isTrue();
    Eventually.until("the stray's session ended", Os.LIMIT, () -> !sessionRuns(stray));
  }

  @Test
  void timeout_endsADescendantThatStartedItsOwnSession() throws Exception {
    RunningProcess shell =
        start(
            "; while [ ! -e " + dir.resolve("never") + " ]; do sleep 1; done",
            Duration.ofSeconds(3));
    long stray = stray();

    assertThat(shell.await().timedOut()).isTrue();

    Eventually.until("the stray's session ended", Os.LIMIT, () -> !sessionRuns(stray));
  }

  /**
   * Once seen while the leader lived, the stray is remembered: it ends with the run even after the
   * leader's exit has made it an orphan that no parent link leads to any more.
   */
  @Test
  void exit_ofTheLeader_endsARememberedDescendantOfItsOwnSession() throws Exception {
    Path go = dir.resolve("go");
    RunningProcess shell = start("; while [ ! -e " + go + " ]; do sleep 0.05; done", null);
    long stray = stray();
    Eventually.until(
        "the run knows the stray", Os.LIMIT, () -> shell.lineage().members().contains(stray));

    Files.createFile(go);
    shell.await();

    Eventually.until("the stray's session ended", Os.LIMIT, () -> !sessionRuns(stray));
  }

  /** Without followDescendants, a run ends its group alone, as it always did. */
  @Test
  void terminate_ofARunThatDoesNotFollowDescendants_endsItsGroupAlone() throws Exception {
    RunningProcess shell =
        Processes.start(
            ProcessSpec.builder(
                    List.of(
                        "sh",
                        "-c",
                        "setsid sh -c 'sleep 40' & echo $! > "
                            + dir.resolve("pid")
                            + "; sleep 300"),
                    Os.env())
                .build(),
            OutputListener.NONE);
    long stray = stray();

    shell.terminate();
    shell.await();

    try {
      assertThat(Os.running(shell.pid())).isFalse();
      assertThat(shell.lineage().members()).isEmpty();
      assertThat(sessionRuns(stray)).isTrue();
    } finally {
      endSession(stray);
    }
  }

  private static void endSession(long session) {
    ProcessTable.all().values().stream()
        .filter(e -> e.session() == session)
        .forEach(e -> ProcessHandle.of(e.pid()).ifPresent(ProcessHandle::destroyForcibly));
    Eventually.until("the session ended", Os.LIMIT, () -> !sessionRuns(session));
  }

  @Test
  void keepGroupAfterExit_leavesTheDescendantsOfItsOwnSession() throws Exception {
    Path go = dir.resolve("go");
    RunningProcess shell =
        Processes.start(
            ProcessSpec.builder(
                    List.of(
                        "sh",
                        "-c",
                        "setsid sh -c 'sleep 40' & echo $! > "
                            + dir.resolve("pid")
                            + "; while [ ! -e "
                            + go
                            + " ]; do sleep 0.05; done"),
                    Os.env())
                .keepGroupAfterExit()
                .followDescendants()
                .build(),
            OutputListener.NONE);
    long stray = stray();
    Eventually.until(
        "the run knows the stray", Os.LIMIT, () -> shell.lineage().members().contains(stray));

    Files.createFile(go);
    shell.await();

    try {
      assertThat(sessionRuns(stray)).isTrue();
    } finally {
      endSession(stray);
    }
  }
}
