package dev.cortex.evidence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestCollectorTest {
  @TempDir Path data;
  @TempDir Path repo;

  static void git(Path repo, String... args) throws Exception {
    java.util.List<String> command =
        new java.util.ArrayList<>(List.of("git", "-C", repo.toString()));
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    p.getInputStream().readAllBytes();
    assertThat(p.waitFor()).isZero();
  }

  @Test
  void collect_runPastTheTimeLimit_isStoppedAndRecordsNothing() throws Exception {
    git(repo, "init", "-q");
    git(repo, "config", "user.email", "t@example.com");
    git(repo, "config", "user.name", "t");
    Files.writeString(repo.resolve("slow.test.mjs"), "// slow\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-q", "-m", "x");
    try (Database db = new Database(data, List.of(EvidenceSchema.area()), Clock.systemUTC())) {
      Ledger ledger = new Ledger(() -> db);
      Results.CreatedClaim claim =
          ledger.createClaim(
              "p",
              "s",
              List.of(new Inputs.CriterionInput("k", "d", true)),
              Clock.systemUTC().instant());
      TestCollector collector =
          new TestCollector(
              () -> db, Clock.systemUTC(), Duration.ofMillis(500), new ByteArrayOutputStream());
      TestCollector.Request request =
          new TestCollector.Request(
              "p",
              claim.claimId(),
              claim.criteria().get(0).criterionId(),
              "sleep 30;",
              List.of("slow.test.mjs"),
              repo);

      long started = System.nanoTime();
      assertThatThrownBy(() -> collector.collect(request))
          .isInstanceOf(TestCollector.Refused.class)
          .hasMessageContaining("did not finish");

      assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(20));
      int runs =
          db.read(c -> Sql.one(c, "SELECT COUNT(*) FROM evidence_test_runs", rs -> rs.getInt(1)));
      assertThat(runs).isZero();
    }
  }
}
