package dev.cortex.workflows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Real programs started through the process runner, driven as JGit drives ssh. */
class StreamedProcessTest {
  @Test
  void start_programReadingItsInput_answersOnItsStreamsAndExits() throws Exception {
    Process process =
        StreamedProcess.start(
            List.of("/bin/sh", "-c", "read line; echo \"got $line\"; echo oops >&2; exit 3"),
            System.getenv());

    try (OutputStream in = process.getOutputStream()) {
      in.write("hello\n".getBytes(StandardCharsets.UTF_8));
    }
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(out).isEqualTo("got hello\n");
    assertThat(err).isEqualTo("oops\n");
    assertThat(process.waitFor()).isEqualTo(3);
    assertThat(process.exitValue()).isEqualTo(3);
    assertThat(process.isAlive()).isFalse();
  }

  @Test
  void start_outputLargerThanAPipe_arrivesWhole() throws Exception {
    Process process =
        StreamedProcess.start(
            List.of("/bin/sh", "-c", "head -c 1000000 /dev/zero"), System.getenv());

    byte[] out = process.getInputStream().readAllBytes();

    assertThat(out).hasSize(1_000_000);
    assertThat(process.waitFor()).isZero();
  }

  @Test
  void destroy_runningProgram_endsItAndItsStreams() throws Exception {
    Process process = StreamedProcess.start(List.of("sleep", "600"), System.getenv());
    assertThatThrownBy(process::exitValue).isInstanceOf(IllegalThreadStateException.class);
    assertThat(process.waitFor(10, TimeUnit.MILLISECONDS)).isFalse();

    process.destroy();

    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.getInputStream().read()).isEqualTo(-1);
    assertThat(process.getErrorStream().read()).isEqualTo(-1);
  }

  @Test
  void start_missingProgram_failsAsTheJdkWould() {
    assertThatThrownBy(
            () -> StreamedProcess.start(List.of("cortex-no-such-program"), System.getenv()))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("cortex-no-such-program");
  }
}
