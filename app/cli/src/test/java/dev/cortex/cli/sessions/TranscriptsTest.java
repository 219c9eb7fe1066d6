package dev.cortex.cli.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Sessions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Attachment entries on a terminal: one line of names, never a payload. */
class TranscriptsTest {
  private static String printed(String kind, String body) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    Transcripts.print(
        out, new Sessions.Entry(1, null, kind, WireJson.mapper().readTree(body), "2026-12-01"));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void print_attachmentOfFiles_namesTheFiles() {
    assertThat(
            printed(
                "attachment",
                "{\"type\":\"files\",\"id\":\"att_1\",\"files\":[{\"name\":\"a.png\"},"
                    + "{\"name\":\"b.csv\"}]}"))
        .isEqualTo("  ▣ files: a.png, b.csv\n");
  }

  @Test
  void print_attachmentOfEachType_isOneLine() {
    assertThat(printed("attachment", "{\"type\":\"view\",\"title\":\"Chart\"}"))
        .isEqualTo("  ▣ view: Chart\n");
    assertThat(
            printed("attachment", "{\"type\":\"decisions\",\"decisions\":[{\"title\":\"Use X\"}]}"))
        .isEqualTo("  ▣ decisions: Use X\n");
    assertThat(printed("attachment", "{\"type\":\"board\",\"board\":{\"slug\":\"q4\"}}"))
        .isEqualTo("  ▣ board: q4\n");
    assertThat(printed("attachment", "{\"type\":\"later\",\"id\":\"att_2\"}"))
        .isEqualTo("  ▣ attachment att_2\n");
  }

  @Test
  void print_anUnknownKind_printsItsJson() {
    assertThat(printed("hologram", "{\"x\":1}")).contains("\"hologram\"");
  }
}
