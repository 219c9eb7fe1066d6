package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.server.waitpoints.WaitSettings;
import dev.cortex.server.waitpoints.Waitpoints;
import dev.cortex.server.waitpoints.WaitpointsSchema;
import dev.cortex.server.waitpoints.Waker;
import dev.cortex.storage.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The devices' spooled signals, as the hub hands them over, on a real database. */
class DeviceSignalsTest {
  @TempDir Path dir;
  Database database;
  Waitpoints waitpoints;
  final List<String> woken = new ArrayList<>();

  @BeforeEach
  void open() {
    database = new Database(dir, List.of(WaitpointsSchema.area()), Clock.systemUTC());
    Waker waker =
        new Waker() {
          @Override
          public boolean knows(String sessionId) {
            return sessionId.equals("ses-1");
          }

          @Override
          public String wake(String sessionId, String text, String key) {
            woken.add(text);
            return "woke";
          }
        };
    waitpoints =
        new Waitpoints(() -> database, waker, () -> WaitSettings.DEFAULTS, Clock.systemUTC());
  }

  @AfterEach
  void close() {
    database.close();
  }

  static HubMessage.SignalFile file(Waitpoints.Created created, String secret) {
    return new HubMessage.SignalFile(
        "sig-1.json",
        new Signals.Signal(created.waitpoint().id(), secret, "ok", "done", null, null, "sig-1"));
  }

  @Test
  void take_aGoodSignal_isAnsweredWithItsOutcome_andRecordedAsComingFromTheDevice() {
    Waitpoints.Created created =
        waitpoints.create(
            new Waits.Create("ses-1", "job", "look", null, null, null, null, null, "box1"),
            Set.of("box1"));

    HubMessage.SignalAck ack =
        new DeviceSignals(waitpoints).take("box1", file(created, created.secret()));

    assertThat(ack.file()).isEqualTo("sig-1.json");
    assertThat(ack.error()).isNull();
    assertThat(ack.outcome().outcome()).isEqualTo(Signals.Outcome.ACCEPTED);
    assertThat(woken).hasSize(1);
    assertThat(woken.get(0)).contains("\"via\" : \"device:box1\"");
  }

  @Test
  void take_aRefusedSignal_isAnsweredWithTheRefusalsCode() {
    Waitpoints.Created created =
        waitpoints.create(
            new Waits.Create("ses-1", "job", "look", null, null, null, null, null, null), Set.of());

    HubMessage.SignalAck ack = new DeviceSignals(waitpoints).take("box1", file(created, "wrong"));

    assertThat(ack.outcome()).isNull();
    assertThat(ack.error().code()).isEqualTo(Signals.Codes.BAD_SECRET);
    assertThat(woken).isEmpty();
  }
}
