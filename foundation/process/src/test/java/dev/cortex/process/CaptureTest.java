package dev.cortex.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Head and tail capture, its text, the spec's checks and the stat parser. */
class CaptureTest {
  private static Capture capture(int head, int tail, String... writes) {
    Capturer capturer = new Capturer(head, tail);
    for (String write : writes) {
      byte[] bytes = write.getBytes(StandardCharsets.UTF_8);
      capturer.write(bytes, 0, bytes.length);
    }
    return capturer.capture();
  }

  @Test
  void capture_withinTheCaps_keepsEverythingContiguous() {
    Capture kept = capture(4, 4, "abc", "def", "gh");

    assertThat(kept.truncated()).isFalse();
    assertThat(kept.text(StandardCharsets.UTF_8)).isEqualTo("abcdefgh");
  }

  @Test
  void capture_pastTheCaps_keepsFirstAndLastWithAMarkerLine() {
    Capture kept = capture(3, 4, "ab", "cdefg", "hijkl", "mn");

    assertThat(new String(kept.head(), StandardCharsets.UTF_8)).isEqualTo("abc");
    assertThat(new String(kept.tail(), StandardCharsets.UTF_8)).isEqualTo("klmn");
    assertThat(kept.totalBytes()).isEqualTo(14);
    assertThat(kept.text(StandardCharsets.UTF_8)).isEqualTo("abc\n[... 7 bytes omitted ...]\nklmn");
  }

  @Test
  void capture_aWriteLargerThanTheTail_keepsItsEnd() {
    Capture kept = capture(0, 3, "abcdefgh");

    assertThat(new String(kept.tail(), StandardCharsets.UTF_8)).isEqualTo("fgh");
    assertThat(kept.omittedBytes()).isEqualTo(5);
  }

  @Test
  void capture_zeroCaps_countsOnly() {
    Capture kept = capture(0, 0, "abc", "de");

    assertThat(kept.bytes()).isEmpty();
    assertThat(kept.totalBytes()).isEqualTo(5);
  }

  @Test
  void spec_refusesWhatCannotRun() {
    assertThatThrownBy(() -> ProcessSpec.builder(List.of(), Map.of()).build())
        .hasMessageContaining("program");
    assertThatThrownBy(() -> ProcessSpec.builder(List.of("x"), Map.of("A=B", "c")).build())
        .hasMessageContaining("A=B");
    assertThatThrownBy(
            () ->
                ProcessSpec.builder(List.of("x"), Map.of())
                    .timeout(java.time.Duration.ZERO)
                    .build())
        .hasMessageContaining("timeout");
    assertThatThrownBy(() -> ProcessSpec.builder(List.of("x"), Map.of()).capture(-1, 0).build())
        .hasMessageContaining("negative");
  }

  @Test
  void parse_commandNameWithSpacesAndParentheses() {
    String line =
        "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 96 0 0 0 0 0 0 0 20 0 1 0 12345 2375680 132 x";

    ProcessTable.Entry entry = ProcessTable.parse(line).orElseThrow();

    assertThat(entry.pid()).isEqualTo(4242);
    assertThat(entry.state()).isEqualTo('S');
    assertThat(entry.group()).isEqualTo(4242);
    assertThat(entry.session()).isEqualTo(4242);
    assertThat(entry.startTicks()).isEqualTo(12345);
  }
}
