package dev.cortex.workflows.activity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.workflows.manifest.StepKind;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The published reference of activity kinds is the one the code generates. */
class KindReferenceTest {
  private static final Path DOC = Path.of("../../docs/activity-kinds.md");

  @Test
  void theReferenceInDocsMatchesTheCode() throws Exception {
    String generated = KindReference.markdown(Activities.standard());
    if (Boolean.getBoolean("cortex.writeDocs")) {
      Files.writeString(DOC, generated, StandardCharsets.UTF_8);
    }
    assertThat(Files.readString(DOC, StandardCharsets.UTF_8))
        .as("docs/activity-kinds.md is stale: regenerate it with -Dcortex.writeDocs=true")
        .isEqualTo(generated);
  }

  @Test
  void everyKindAndEveryInputIsDescribed() {
    String generated = KindReference.markdown(Activities.standard());
    for (StepKind kind : StepKind.values()) {
      assertThat(generated).contains("## `" + kind.wireName() + "`");
    }
    assertThat(generated)
        .contains("| `argv` |", "| `statement` |", "| `expression` |", "| `model` |");
    assertThat(generated).doesNotContain("|  |");
  }
}
