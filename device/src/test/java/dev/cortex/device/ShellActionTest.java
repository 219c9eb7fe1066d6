package dev.cortex.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CancellationSignal;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import dev.cortex.testing.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands in a real login shell: exit codes, timeouts, cancel, and the caps on their output. */
class ShellActionTest {
  static final Map<String, String> ENV = System.getenv();
  static final int CAPTURE = 4 * 1024 * 1024;

  @TempDir Path dir;

  ShellAction shell(int captureBytes) {
    return new ShellAction(
        ENV, dir, captureBytes, false, new Jobs(dir.resolve("jobs"), ENV, dir, Clock.systemUTC()));
  }

  static Actions.Bash bash(String command, int timeoutSeconds) {
    return new Actions.Bash(command, timeoutSeconds, null, false);
  }

  /** What was streamed, chunk by chunk. */
  static final class Streamed implements BiConsumer<String, String> {
    final List<String> chunks = new CopyOnWriteArrayList<>();

    @Override
    public void accept(String stream, String data) {
      chunks.add(data);
    }

    String text() {
      return String.join("", chunks);
    }
  }

  @Test
  void run_command_returnsItsExitCodeAndInterleavedOutput() throws Exception {
    Streamed streamed = new Streamed();

    Actions.BashResult result =
        shell(CAPTURE)
            .run(
                bash("echo out; echo err >&2; echo again; exit 3", 10),
                Cancellation.NONE,
                streamed);

    assertThat(result.exitCode()).isEqualTo(3);
    assertThat(result.output()).isEqualTo("out\nerr\nagain\n");
    assertThat(result.outputBytes()).isEqualTo(14);
    assertThat(result.timedOut()).isFalse();
    assertThat(result.cancelled()).isFalse();
    assertThat(result.note()).isNull();
    assertThat(streamed.text()).isEqualTo("out\nerr\nagain\n");
  }

  @Test
  void run_commandInItsWorkingDirectory_seesItsFiles() throws Exception {
    Files.writeString(dir.resolve("here.txt"), "present");

    Actions.BashResult result =
        shell(CAPTURE).run(bash("cat here.txt", 10), Cancellation.NONE, (s, d) -> {});

    assertThat(result.output()).isEqualTo("present");
  }

  @Test
  void run_stillRunningAtItsTimeout_endsTheWholeGroupWithExitCode124() throws Exception {
    Path pid = dir.resolve("child.pid");

    Actions.BashResult result =
        shell(CAPTURE)
            .run(
                bash("sleep 60 & echo $! > " + pid + "; echo started; wait", 1),
                Cancellation.NONE,
                (s, d) -> {});

    assertThat(result.exitCode()).isEqualTo(Actions.TIMEOUT_EXIT_CODE);
    assertThat(result.timedOut()).isTrue();
    assertThat(result.cancelled()).isFalse();
    assertThat(result.output()).isEqualTo("started\n");
    assertThat(result.note()).startsWith("Timed out after 1 s: the command and everything it");
    long child = Long.parseLong(Files.readString(pid).strip());
    Eventually.until(
        "the command's background child is gone",
        Duration.ofSeconds(20),
        () -> ProcessHandle.of(child).map(h -> !h.isAlive()).orElse(true));
  }

  @Test
  void run_cancelled_stopsTheCommandAndSaysSo() throws Exception {
    CancellationSignal cancellation = new CancellationSignal();
    Streamed streamed = new Streamed();
    CompletableFuture<Actions.BashResult> running =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return shell(CAPTURE)
                    .run(bash("echo started; sleep 60", 600), cancellation, streamed);
              } catch (ActionException e) {
                throw new IllegalStateException(e);
              }
            });
    Eventually.until(
        "the command has started", Duration.ofSeconds(20), () -> !streamed.chunks.isEmpty());

    cancellation.cancel();

    Actions.BashResult result = running.get(20, TimeUnit.SECONDS);
    assertThat(result.cancelled()).isTrue();
    assertThat(result.timedOut()).isFalse();
    assertThat(result.note()).startsWith("Cancelled:");
    assertThat(result.durationMillis()).isLessThan(60_000);
  }

  @Test
  void run_outputBeyondTheCapture_keepsItsStartAndEnd() throws Exception {
    StringBuilder expected = new StringBuilder();
    for (int i = 1; i <= 5000; i++) {
      expected.append(i).append('\n');
    }

    Actions.BashResult result =
        shell(2000).run(bash("seq 1 5000", 10), Cancellation.NONE, (s, d) -> {});

    assertThat(result.truncated()).isTrue();
    assertThat(result.outputBytes()).isEqualTo(expected.length());
    assertThat(result.output()).startsWith("1\n2\n3\n").endsWith("4999\n5000\n");
    assertThat(result.output()).contains("bytes omitted ...]").hasSizeLessThan(2100);
    assertThat(result.note()).contains("The middle of the output").contains("bytes in all");
  }

  @Test
  void run_outputBeyondTheStreamingCap_streamsOnlyTheCapButCapturesAll() throws Exception {
    Streamed streamed = new Streamed();

    Actions.BashResult result =
        shell(CAPTURE)
            .run(bash("head -c 3000000 /dev/zero | tr '\\0' a", 60), Cancellation.NONE, streamed);

    assertThat(result.exitCode()).isZero();
    assertThat(result.outputBytes()).isEqualTo(3_000_000);
    assertThat(result.output()).hasSize(3_000_000);
    int sent = streamed.text().length();
    assertThat(sent).isGreaterThanOrEqualTo(Hub.MAX_STREAMED_CHARS);
    // The chunk that crosses the cap is the last one sent.
    assertThat(sent - streamed.chunks.get(streamed.chunks.size() - 1).length())
        .isLessThan(Hub.MAX_STREAMED_CHARS);
  }

  @Test
  void run_badParameters_areRefusedBeforeAnythingRuns() {
    ShellAction shell = shell(CAPTURE);

    assertThatThrownBy(() -> shell.run(bash(" ", 10), Cancellation.NONE, (s, d) -> {}))
        .hasMessageContaining("command is required");
    assertThatThrownBy(() -> shell.run(bash("true", 601), Cancellation.NONE, (s, d) -> {}))
        .isInstanceOfSatisfying(
            ActionException.class,
            e -> assertThat(e.body().code()).isEqualTo(Codes.INVALID_ARGUMENT))
        .hasMessageContaining("1 to 600 seconds");
    assertThatThrownBy(
            () ->
                shell.run(
                    new Actions.Bash(
                        "true", 10, null, false, new Actions.JobSignal("wp", "secret")),
                    Cancellation.NONE,
                    (s, d) -> {}))
        .hasMessageContaining("Only a background job");
  }

  @Test
  void run_inTheBackground_startsAJobAndReturnsAtOnce() throws Exception {
    Actions.BashResult result =
        shell(CAPTURE)
            .run(
                new Actions.Bash("sleep 0.1; echo done", 10, "a short job", true),
                Cancellation.NONE,
                (s, d) -> {});

    assertThat(result.job()).isNotNull();
    assertThat(result.job().description()).isEqualTo("a short job");
    assertThat(result.note())
        .startsWith("Started in the background as job " + result.job().id())
        .endsWith("Ask for its status or output with remote_job.");
  }

  @Test
  void run_inTheBackgroundOnWindows_isUnsupported() {
    ShellAction windows =
        new ShellAction(
            ENV, dir, CAPTURE, true, new Jobs(dir.resolve("jobs"), ENV, dir, Clock.systemUTC()));

    assertThatThrownBy(
            () ->
                windows.run(
                    new Actions.Bash("true", 10, null, true), Cancellation.NONE, (s, d) -> {}))
        .isInstanceOfSatisfying(
            ActionException.class, e -> assertThat(e.body().code()).isEqualTo(Codes.UNSUPPORTED));
  }
}
