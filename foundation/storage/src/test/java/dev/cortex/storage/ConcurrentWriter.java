package dev.cortex.storage;

import static dev.cortex.storage.TestAreas.insertNote;
import static dev.cortex.storage.TestAreas.notes;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A second {@code cortex} process for {@link MultiProcessTest}: prints {@code ready}, waits for a
 * line on stdin, then inserts {@code ROWS} notes in separate write transactions into a database it
 * opens (and migrates) only then.
 *
 * <p>Usage: {@code ConcurrentWriter DATA_DIR ROWS LABEL}; exits 0 on success, 1 on any failure.
 */
public final class ConcurrentWriter {
  private ConcurrentWriter() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = Path.of(args[0]);
    int rows = Integer.parseInt(args[1]);
    String label = args[2];
    try (Database db = new Database(dataDir, List.of(notes(3)), Clock.systemUTC())) {
      System.out.println("ready");
      System.out.flush();
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      if (in.readLine() == null) {
        throw new IllegalStateException("stdin closed before the start signal");
      }
      for (int i = 0; i < rows; i++) {
        String body = label + "-" + i;
        db.write(
            c -> {
              insertNote(c, body);
              return null;
            });
      }
    } catch (Throwable e) {
      e.printStackTrace();
      System.exit(1);
    }
  }
}
