package dev.cortex.evidence;

import static dev.cortex.evidence.LedgerFixture.context;
import static dev.cortex.evidence.LedgerFixture.ids;
import static dev.cortex.evidence.LedgerFixture.single;
import static dev.cortex.evidence.LedgerFixture.strings;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.storage.Database;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Two JVMs recording claims in one ledger file at the same time, as two servers would. */
class LedgerProcessesTest {
  static final int CLAIMS = 100;
  static final List<String> LABELS = List.of("a", "b");

  @TempDir Path temp;

  @Test
  @Timeout(120)
  void createClaim_fromTwoProcessesAtOnce_keepsEveryClaimAndMigratesOnce() throws Exception {
    Path dataDir = temp.resolve("data");
    List<Process> processes = new ArrayList<>();
    try {
      for (String label : LABELS) {
        processes.add(start(dataDir, label));
      }
      for (Process process : processes) {
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("ready");
      }
      for (Process process : processes) {
        try (OutputStream in = process.getOutputStream()) {
          in.write("go\n".getBytes(StandardCharsets.UTF_8));
        }
      }
      for (int i = 0; i < processes.size(); i++) {
        Process process = processes.get(i);
        String label = LABELS.get(i);
        assertThat(process.waitFor(90, TimeUnit.SECONDS))
            .as("recorder %s finished", label)
            .isTrue();
        assertThat(process.exitValue())
            .as("recorder %s exit; stderr:%n%s", label, stderr(label))
            .isZero();
      }
    } finally {
      processes.forEach(Process::destroyForcibly);
    }

    try (Database db = new Database(dataDir, List.of(EvidenceSchema.area()), Clock.systemUTC())) {
      assertThat(single(db, "SELECT COUNT(*) FROM evidence_claims")).isEqualTo(2L * CLAIMS);
      assertThat(single(db, "SELECT COUNT(*) FROM evidence_criteria")).isEqualTo(4L * CLAIMS);
      for (String label : LABELS) {
        assertThat(
                single(
                    db,
                    "SELECT COUNT(DISTINCT statement) FROM evidence_claims WHERE statement LIKE '"
                        + label
                        + "-%'"))
            .as("claims of %s", label)
            .isEqualTo(CLAIMS);
      }
      assertThat(strings(db, "SELECT project_id || ' ' || policy FROM evidence_projects"))
          .containsExactly(ClaimRecorder.PROJECT + " strict-1");
      assertThat(LedgerFixture.migrations(db)).hasSize(EvidenceSchema.area().migrations().size());
      assertThat(ids(context(db, ClaimRecorder.PROJECT, 20), "claims", "claim_id")).hasSize(20);
    }
  }

  private Process start(Path dataDir, String label) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return new ProcessBuilder(
            java.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            ClaimRecorder.class.getName(),
            dataDir.toString(),
            Integer.toString(CLAIMS),
            label)
        .redirectError(temp.resolve("stderr-" + label + ".txt").toFile())
        .start();
  }

  private String stderr(String label) throws Exception {
    return Files.readString(temp.resolve("stderr-" + label + ".txt"));
  }
}
