package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Spool;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.server.waitpoints.WaitSettings;
import dev.cortex.server.waitpoints.Waitpoints;
import dev.cortex.server.waitpoints.WaitpointsSchema;
import dev.cortex.server.waitpoints.Waker;
import dev.cortex.storage.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server's own spool, drained into waitpoints on a real database. */
class SpoolDrainTest {
  @TempDir Path dir;
  Database database;
  Waitpoints waitpoints;
  Spool spool;
  final List<String> woken = new ArrayList<>();

  @BeforeEach
  void open() {
    database =
        new Database(dir.resolve("data"), List.of(WaitpointsSchema.area()), Clock.systemUTC());
    Waker waker =
        new Waker() {
          @Override
          public boolean knows(String sessionId) {
            return true;
          }

          @Override
          public String wake(String sessionId, String text, String key) {
            woken.add(text);
            return "woke";
          }
        };
    // The server's clock runs a day ahead, as a test's may.
    Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofDays(1));
    waitpoints = new Waitpoints(() -> database, waker, () -> WaitSettings.DEFAULTS, ahead);
    spool = new Spool(dir.resolve("spool"));
  }

  @AfterEach
  void close() {
    database.close();
  }

  Waitpoints.Created waitpoint() {
    return waitpoints.create(
        new Waits.Create("ses-1", "job", "look", null, null, null, null, null, null), Set.of());
  }

  SpoolDrain drain() {
    return new SpoolDrain(spool, waitpoints, Clock.systemUTC());
  }

  @Test
  void drain_aSignalTaken_deletesItsFile_andARefusedOneIsMovedAsideWithTheReason() {
    Waitpoints.Created created = waitpoint();
    Path good =
        spool.write(
            new Signals.Signal(
                created.waitpoint().id(), created.secret(), "ok", "done", null, null, null));
    Path refused =
        spool.write(
            new Signals.Signal(created.waitpoint().id(), "wrong", "ok", null, null, null, null));

    assertThat(drain().drain()).isEqualTo(2);

    assertThat(good).doesNotExist();
    assertThat(refused).doesNotExist();
    assertThat(woken).hasSize(1);
    assertThat(woken.get(0)).contains("\"via\" : \"spool\"");
    String name = refused.getFileName().toString();
    Path rejected = spool.dir().resolve(Spool.REJECTED);
    assertThat(rejected.resolve(name)).exists();
    // NAME.json is moved aside with NAME.reason beside it, as the docs say.
    Path reason = rejected.resolve(name.substring(0, name.length() - ".json".length()) + ".reason");
    assertThat(reason).content().startsWith(Signals.Codes.BAD_SECRET);
    assertThat(rejected.resolve(name + ".reason")).doesNotExist();
  }

  @Test
  void drain_aFileStillBeingWritten_waitsByTheFileSystemsClock_notTheServersAheadOfIt()
      throws Exception {
    Path partial = Files.createDirectories(spool.dir()).resolve("partial.json");
    Files.writeString(partial, "{\"id\": \"wp-");

    drain().drain();
    assertThat(partial).exists();
    Files.setLastModifiedTime(
        partial,
        FileTime.fromMillis(System.currentTimeMillis() - Duration.ofMinutes(1).toMillis()));
    drain().drain();

    assertThat(partial).doesNotExist();
    assertThat(spool.dir().resolve(Spool.REJECTED).resolve("partial.json")).exists();
  }
}
