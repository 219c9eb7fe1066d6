package dev.cortex.evidence;

import dev.cortex.storage.Database;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A second {@code cortex} process for {@link LedgerProcessesTest}: prints {@code ready}, waits for
 * a line on stdin, then records {@code COUNT} claims in project {@code shared} through the {@link
 * Ledger}, one transaction each, on a database it opens (and migrates) only then.
 *
 * <p>Usage: {@code ClaimRecorder DATA_DIR COUNT LABEL}; exits 0 on success, 1 on any failure.
 */
public final class ClaimRecorder {
  static final String PROJECT = "shared";

  private ClaimRecorder() {}

  public static void main(String[] args) {
    Path dataDir = Path.of(args[0]);
    int count = Integer.parseInt(args[1]);
    String label = args[2];
    Clock clock = Clock.systemUTC();
    try (Database db = new Database(dataDir, List.of(EvidenceSchema.area()), clock)) {
      Ledger ledger = new Ledger(() -> db);
      System.out.println("ready");
      System.out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      if (in.readLine() == null) {
        throw new IllegalStateException("stdin closed before the start signal");
      }
      for (int i = 0; i < count; i++) {
        ledger.createClaim(
            PROJECT,
            label + "-" + i,
            List.of(LedgerFixture.required("k"), LedgerFixture.optional("extra")),
            clock.instant());
      }
    } catch (Throwable e) {
      e.printStackTrace();
      System.exit(1);
    }
  }
}
