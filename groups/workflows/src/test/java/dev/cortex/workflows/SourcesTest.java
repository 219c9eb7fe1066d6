package dev.cortex.workflows;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import org.junit.jupiter.api.Test;

class SourcesTest {
  /** Regression: "workflow 'x' cannot be read" said nothing of why. */
  @Test
  void readProblem_saysWhyInWords_withoutRepeatingThePath() {
    assertThat(Sources.readProblem(new AccessDeniedException("/srv/flows/x.yaml")))
        .isEqualTo("permission denied");
    assertThat(Sources.readProblem(new FileSystemException("/srv/x.yaml", null, "Is a directory")))
        .isEqualTo("is a directory");
    assertThat(Sources.readProblem(new IOException("Input/output error")))
        .isEqualTo("Input/output error");
  }
}
