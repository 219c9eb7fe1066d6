package dev.cortex.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ProcessSpec.Builder#readOutputToEnd}: output printed before the exit reaches a listener
 * that lags behind, however long it takes, within the bound; a pipe held open by a descendant that
 * left the group ends the reading once it has been quiet for a second.
 */
class OutputDrainTest {
  @BeforeEach
  void linuxOnly() {
    assumeTrue(Os.linux() && Processes.groupsSupported(), "needs /proc and setsid");
  }

  /** A listener that takes a millisecond over each line it hears, and counts them. */
  static final class SlowListener implements OutputListener {
    final AtomicInteger lines = new AtomicInteger();

    @Override
    public void output(StandardStream stream, byte[] bytes, int offset, int length) {
      if (stream != StandardStream.STDOUT) {
        return;
      }
      for (int i = offset; i < offset + length; i++) {
        if (bytes[i] == '\n') {
          lines.incrementAndGet();
          try {
            Thread.sleep(1); // a receiver that records each line, as a session does
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
          }
        }
      }
    }
  }

  /**
   * Output the listener had not heard a second after the exit used to be dropped (an agent's last
   * lines, its acknowledgements and its end among them).
   */
  @Test
  void readOutputToEnd_listenerLaggingBehindTheExit_hearsEveryLine() throws Exception {
    SlowListener listener = new SlowListener();

    ProcessResult result =
        Processes.start(
                ProcessSpec.builder(List.of("seq", "1", "2500"), Os.env())
                    .readOutputToEnd(Duration.ofMinutes(1))
                    .build(),
                listener)
            .await();

    assertThat(listener.lines.get()).isEqualTo(2500);
    assertThat(result.stdout().text(StandardCharsets.UTF_8)).endsWith("\n2499\n2500\n");
  }

  @Test
  void readOutputToEnd_pipeHeldOpenByADescendantOutsideTheGroup_endsOnceQuiet() throws Exception {
    RunningProcess process =
        Processes.start(
            ProcessSpec.builder(
                    List.of("sh", "-c", "setsid sleep 120 & echo $!; echo done"), Os.env())
                .readOutputToEnd(Duration.ofMinutes(2))
                .build(),
            OutputListener.NONE);
    long started = System.nanoTime();

    Optional<ProcessResult> result = process.await(Duration.ofSeconds(30));

    assertThat(result).as("the end came before the bound").isPresent();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(30));
    String out = result.get().stdout().text(StandardCharsets.UTF_8);
    assertThat(out).endsWith("done\n");
    ProcessHandle.of(Long.parseLong(out.lines().findFirst().orElseThrow().strip()))
        .ifPresent(ProcessHandle::destroyForcibly);
  }
}
