package dev.cortex.storage;

import static dev.cortex.storage.TestAreas.applied;
import static dev.cortex.storage.TestAreas.count;
import static dev.cortex.storage.TestAreas.notes;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
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

/** Two JVMs migrating a fresh file and writing to it at the same time, as two servers would. */
class MultiProcessTest {
  static final int ROWS = 200;

  @TempDir Path temp;

  @Test
  @Timeout(120)
  void write_fromTwoProcessesAtOnce_keepsEveryRowAndMigratesOnce() throws Exception {
    Path dataDir = temp.resolve("data");
    List<Process> processes = new ArrayList<>();
    try {
      for (String label : List.of("a", "b")) {
        processes.add(start(dataDir, label));
      }
      for (Process process : processes) {
        awaitReady(process);
      }
      for (Process process : processes) {
        signalStart(process);
      }
      for (int i = 0; i < processes.size(); i++) {
        Process process = processes.get(i);
        assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("writer %d finished", i).isTrue();
        assertThat(process.exitValue()).as("writer %d exit; stderr:%n%s", i, stderr(i)).isZero();
      }
    } finally {
      processes.forEach(Process::destroyForcibly);
    }

    try (Database db = new Database(dataDir, List.of(notes(3)), Clock.systemUTC())) {
      assertThat(count(db, "notes")).isEqualTo(2 * ROWS);
      assertThat(applied(db)).hasSize(3);
    }
  }

  private Process start(Path dataDir, String label) throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    return new ProcessBuilder(
            java.toString(),
            "-cp",
            System.getProperty("java.class.path"),
            ConcurrentWriter.class.getName(),
            dataDir.toString(),
            Integer.toString(ROWS),
            label)
        .redirectError(temp.resolve("stderr-" + label + ".txt").toFile())
        .start();
  }

  private static void awaitReady(Process process) throws Exception {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    assertThat(out.readLine()).isEqualTo("ready");
  }

  private static void signalStart(Process process) throws Exception {
    Writer in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
    in.write("go\n");
    in.close();
  }

  private String stderr(int index) throws Exception {
    return Files.readString(temp.resolve("stderr-" + (index == 0 ? "a" : "b") + ".txt"));
  }
}
