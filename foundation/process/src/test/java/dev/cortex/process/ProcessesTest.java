package dev.cortex.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cortex.testing.Eventually;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real programs through {@link Processes}: capture, input, environment, groups, timeouts. */
class ProcessesTest {
  @TempDir Path dir;

  @BeforeEach
  void linuxOnly() {
    assumeTrue(Os.linux() && Processes.groupsSupported(), "needs /proc and setsid");
  }

  private static ProcessResult run(ProcessSpec spec) throws Exception {
    return Processes.start(spec, OutputListener.NONE).await();
  }

  private static ProcessSpec.Builder sh(String script) {
    return ProcessSpec.builder(List.of("sh", "-c", script), Os.env());
  }

  @Test
  void start_capturesBothStreamsAndTheExitCode() throws Exception {
    ProcessResult result = run(sh("echo out; echo err >&2; exit 3").build());

    assertThat(result.exitCode()).isEqualTo(3);
    assertThat(result.stdout().text(StandardCharsets.UTF_8)).isEqualTo("out\n");
    assertThat(result.stderr().text(StandardCharsets.UTF_8)).isEqualTo("err\n");
    assertThat(result.timedOut()).isFalse();
    assertThat(result.terminated()).isFalse();
  }

  @Test
  void start_stdin_isWrittenThenClosed() throws Exception {
    ProcessResult result =
        run(
            ProcessSpec.builder(List.of("cat"), Os.env())
                .stdin("line one\nline two".getBytes(StandardCharsets.UTF_8))
                .build());

    assertThat(result.stdout().text(StandardCharsets.UTF_8)).isEqualTo("line one\nline two");
  }

  @Test
  void start_noStdin_closesItAtOnce() throws Exception {
    ProcessResult result = run(ProcessSpec.builder(List.of("cat"), Os.env()).build());

    assertThat(result.exitCode()).isZero();
    assertThat(result.stdout().totalBytes()).isZero();
  }

  @Test
  void start_openStdin_carriesAConversation() throws Exception {
    List<String> heard = new CopyOnWriteArrayList<>();
    RunningProcess cat =
        Processes.start(
            ProcessSpec.builder(List.of("cat"), Os.env()).stdinOpen().build(),
            (stream, bytes, offset, length) ->
                heard.add(new String(bytes, offset, length, StandardCharsets.UTF_8)));
    cat.stdin().write("ping\n".getBytes(StandardCharsets.UTF_8));
    cat.stdin().flush();
    Eventually.until("cat echoes", Os.LIMIT, () -> String.join("", heard).equals("ping\n"));
    cat.stdin().close();

    assertThat(cat.await().exitCode()).isZero();
  }

  @Test
  void start_environment_isExactlyTheGivenOne() throws Exception {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", "/usr/bin:/bin");
    env.put("ONLY_THIS", "yes");
    ProcessResult result = run(ProcessSpec.builder(List.of("env"), env).build());

    List<String> lines = result.stdout().text(StandardCharsets.UTF_8).lines().sorted().toList();
    assertThat(lines).containsExactly("ONLY_THIS=yes", "PATH=/usr/bin:/bin");
  }

  @Test
  void start_bareProgram_isFoundOnTheGivenPath() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path tool = bin.resolve("cortex-test-tool");
    Files.writeString(tool, "#!/bin/sh\necho found\n");
    tool.toFile().setExecutable(true);

    ProcessResult result =
        run(
            ProcessSpec.builder(List.of("cortex-test-tool"), Map.of("PATH", bin + ":/usr/bin:/bin"))
                .build());

    assertThat(result.stdout().text(StandardCharsets.UTF_8)).isEqualTo("found\n");
  }

  @Test
  void start_missingProgram_failsAsTheJdkDoes() {
    assertThatThrownBy(
            () ->
                Processes.start(
                    ProcessSpec.builder(List.of("no-such-program-here"), Os.env()).build(),
                    OutputListener.NONE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("error=2");
  }

  @Test
  void start_directory_isTheWorkingDirectory() throws Exception {
    ProcessResult result = run(sh("pwd").directory(dir).build());

    assertThat(result.stdout().text(StandardCharsets.UTF_8).strip())
        .isEqualTo(dir.toRealPath().toString());
  }

  @Test
  void start_leadsAGroupAndSessionOfItsOwn() throws Exception {
    RunningProcess sleep =
        Processes.start(
            ProcessSpec.builder(List.of("sleep", "300"), Os.env()).build(), OutputListener.NONE);
    try {
      Eventually.until(
          "sleep has its own session",
          Os.LIMIT,
          () ->
              ProcessTable.read(sleep.pid())
                  .map(e -> e.group() == sleep.pid() && e.session() == sleep.pid())
                  .orElse(false));
      assertThat(sleep.groupId()).isEqualTo(sleep.pid());
    } finally {
      sleep.terminate();
    }
  }

  @Test
  void startDetached_appendsBothStreamsToTheOutputAndReportsTheExitCode() throws Exception {
    Path output = Files.writeString(dir.resolve("output.log"), "before\n");

    Processes.Detached detached =
        Processes.startDetached(sh("echo out; echo err >&2; exit 5").build(), output);

    assertThat(detached.exitCode().get(Os.LIMIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS))
        .isEqualTo(5);
    assertThat(output).hasContent("before\nout\nerr\n");
    assertThat(detached.startedAt()).isBeforeOrEqualTo(java.time.Instant.now());
  }

  @Test
  void startDetached_leadsASessionOfItsOwn_untilEndGroupEndsIt() throws Exception {
    Processes.Detached detached =
        Processes.startDetached(
            ProcessSpec.builder(List.of("sleep", "300"), Os.env()).build(),
            dir.resolve("sleep.log"));
    try {
      Eventually.until(
          "sleep has its own session",
          Os.LIMIT,
          () ->
              ProcessTable.read(detached.pid())
                  .map(e -> e.group() == detached.pid() && e.session() == detached.pid())
                  .orElse(false));
      assertThat(detached.exitCode()).isNotDone();
    } finally {
      assertThat(Processes.endGroup(detached.pid(), detached.startedAt())).isEqualTo(1);
    }
    Eventually.until("the detached sleep ended", Os.LIMIT, () -> detached.exitCode().isDone());
  }

  @Test
  void exit_ofTheLeader_endsItsBackgroundChildren() throws Exception {
    // The orphan is reparented (to init or a subreaper) the moment the shell exits: the JDK's
    // descendants() no longer sees it, the group does.
    ProcessResult result = run(sh("sleep 300 & echo $!").build());
    long orphan = Long.parseLong(result.stdout().text(StandardCharsets.UTF_8).strip());

    Eventually.until("the background sleep ended", Os.LIMIT, () -> !Os.running(orphan));
  }

  @Test
  void keepGroupAfterExit_returnsAtTheLeadersExit_thoughAChildHoldsThePipes() throws Exception {
    RunningProcess shell =
        Processes.start(
            sh("sleep 300 & echo $!").keepGroupAfterExit().build(), OutputListener.NONE);

    Optional<ProcessResult> result = shell.await(Os.LIMIT);

    assertThat(result).as("await returned while the background child runs").isPresent();
    long child = Long.parseLong(result.get().stdout().text(StandardCharsets.UTF_8).strip());
    assertThat(Os.running(child)).isTrue();
    assertThat(Processes.endGroup(shell.groupId(), shell.startedAt())).isEqualTo(1);
    Eventually.until("the recorded group's survivor ended", Os.LIMIT, () -> !Os.running(child));
  }

  @Test
  void timeout_endsTheWholeGroup_withExitCode124() throws Exception {
    RunningProcess shell =
        Processes.start(
            sh("sleep 300 & echo $!; sleep 300").timeout(Duration.ofMillis(500)).build(),
            OutputListener.NONE);

    ProcessResult result = shell.await();

    assertThat(result.timedOut()).isTrue();
    assertThat(result.exitCode()).isEqualTo(ProcessResult.TIMEOUT_EXIT_CODE);
    long child = Long.parseLong(result.stdout().text(StandardCharsets.UTF_8).strip());
    Eventually.until("the background sleep ended", Os.LIMIT, () -> !Os.running(child));
    assertThat(Os.running(shell.pid())).isFalse();
  }

  @Test
  void terminate_endsATreeThatIgnoresNothing_andIsIdempotent() throws Exception {
    AtomicReference<String> pids = new AtomicReference<>("");
    RunningProcess shell =
        Processes.start(
            sh("sleep 300 & echo $!; (sleep 300 & echo $!; wait) & wait").build(),
            (stream, bytes, offset, length) ->
                pids.updateAndGet(
                    p -> p + new String(bytes, offset, length, StandardCharsets.UTF_8)));
    Eventually.until("both children reported", Os.LIMIT, () -> pids.get().lines().count() == 2);

    shell.terminate();
    shell.terminate();
    ProcessResult result = shell.await();

    assertThat(result.terminated()).isTrue();
    for (String pid : pids.get().lines().toList()) {
      assertThat(Os.running(Long.parseLong(pid))).as("pid %s", pid).isFalse();
    }
  }

  @Test
  void terminate_killsAfterTheGrace_whatIgnoresTerm() throws Exception {
    AtomicReference<String> pid = new AtomicReference<>("");
    RunningProcess shell =
        Processes.start(
            sh("trap '' TERM; sh -c \"trap '' TERM; sleep 300\" & echo $!; wait").build(),
            (stream, bytes, offset, length) ->
                pid.updateAndGet(
                    p -> p + new String(bytes, offset, length, StandardCharsets.UTF_8)));
    Eventually.until("the child reported", Os.LIMIT, () -> pid.get().endsWith("\n"));

    shell.terminate();

    assertThat(Os.running(Long.parseLong(pid.get().strip()))).isFalse();
    assertThat(shell.await().exitCode()).isEqualTo(128 + 9);
  }

  @Test
  void interrupt_ofAwait_endsTheGroupThenRethrows() throws Exception {
    RunningProcess sleep =
        Processes.start(
            ProcessSpec.builder(List.of("sleep", "300"), Os.env()).build(), OutputListener.NONE);
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread waiter =
        new Thread(
            () -> {
              try {
                sleep.await();
              } catch (Throwable e) {
                thrown.set(e);
              }
            });
    waiter.start();
    Eventually.until("the waiter waits", Os.LIMIT, () -> waiter.getState() == Thread.State.WAITING);

    waiter.interrupt();
    waiter.join();

    assertThat(thrown.get()).isInstanceOf(InterruptedException.class);
    assertThat(Os.running(sleep.pid())).isFalse();
    assertThat(sleep.await().terminated()).isTrue();
  }

  @Test
  void capture_ofTwentyMegabytes_keepsHeadAndTailAndCountsAll() throws Exception {
    ProcessResult result = run(sh("seq 1 3000000").capture(1000, 1000).build());

    long expected = 0;
    for (int i = 1; i <= 3_000_000; i++) {
      expected += Integer.toString(i).length() + 1;
    }
    Capture out = result.stdout();
    assertThat(out.totalBytes()).isEqualTo(expected).isGreaterThan(20_000_000L);
    assertThat(out.head()).hasSize(1000);
    assertThat(out.tail()).hasSize(1000);
    assertThat(out.truncated()).isTrue();
    String text = out.text(StandardCharsets.UTF_8);
    assertThat(text).startsWith("1\n2\n3\n").endsWith("2999999\n3000000\n");
    assertThat(text).contains("[... " + (expected - 2000) + " bytes omitted ...]");
  }

  @Test
  void listener_hearsEveryChunk_inOrder() throws Exception {
    ByteArrayOutputStream heard = new ByteArrayOutputStream();
    List<Integer> chunks = new ArrayList<>();
    RunningProcess seq =
        Processes.start(
            sh("seq 1 300000").capture(0, 0).build(),
            (stream, bytes, offset, length) -> {
              synchronized (heard) {
                heard.write(bytes, offset, length);
                chunks.add(length);
              }
            });
    ProcessResult result = seq.await();

    StringBuilder expected = new StringBuilder();
    for (int i = 1; i <= 300_000; i++) {
      expected.append(i).append('\n');
    }
    assertThat(heard.toString(StandardCharsets.UTF_8)).isEqualTo(expected.toString());
    assertThat(chunks.size()).isGreaterThan(1);
    assertThat(result.stdout().totalBytes()).isEqualTo(expected.length());
    assertThat(result.stdout().head()).isEmpty();
  }

  @Test
  void jvmExit_endsTheGroupsOfItsRuns() throws Exception {
    try (Child child = Child.start("exit")) {
      long sleep = child.reportedPid();
      child.awaitLine("exiting");
      assertThat(child.process.waitFor()).isZero();
      Eventually.until(
          "the exited JVM's background sleep ended", Os.LIMIT, () -> !Os.running(sleep));
    }
  }

  @Test
  void jvmKill9_endsTheGroupsOfItsRuns() throws Exception {
    try (Child child = Child.start("hang")) {
      long sleep = child.reportedPid();
      child.awaitLine("hanging");
      child.process.destroyForcibly();
      child.process.waitFor();
      Eventually.until(
          "the killed JVM's background sleep ended", Os.LIMIT, () -> !Os.running(sleep));
    }
  }
}
