package dev.cortex.server.waitpoints;

import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.storage.Database;
import dev.cortex.testing.MovableClock;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Waitpoints on a real SQLite database in a directory of the test's, a clock the test moves, and
 * the sessions' inboxes; settings the test may change while it runs.
 */
final class WaitFixture implements AutoCloseable {
  static final String SESSION = "ses-0000000000000001";
  static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  final MovableClock clock = new MovableClock(START);
  final Inbox inbox = new Inbox().session(SESSION);
  final AtomicReference<WaitSettings> settings = new AtomicReference<>(WaitSettings.DEFAULTS);
  final Database database;
  final Waitpoints waitpoints;

  WaitFixture(Path dir) {
    database = new Database(dir, List.of(WaitpointsSchema.area()), Clock.systemUTC());
    waitpoints = new Waitpoints(() -> database, inbox, settings::get, clock);
  }

  /** Sets {@code [waitpoints]} as the file would. */
  void settings(Duration coalesce, int maxWakesPerHour, Duration keepResolved) {
    settings.set(new WaitSettings(coalesce, maxWakesPerHour, keepResolved));
  }

  /** A request of {@link #SESSION} with a label and an intent, to be changed with its setters. */
  static Request request() {
    return new Request();
  }

  Waitpoints.Created create(Request request) {
    return waitpoints.create(request.toWire(), Set.of("box1"));
  }

  /** Creates one with only a label and an intent. */
  Waitpoints.Created create() {
    return create(request());
  }

  Signals.Outcome signal(Waitpoints.Created created, String status, String member) {
    return signal(created, status, member, null, null);
  }

  Signals.Outcome signal(
      Waitpoints.Created created, String status, String member, String message, String signalId) {
    return waitpoints.signal(
        new Signals.Signal(
            created.waitpoint().id(), created.secret(), status, message, member, null, signalId),
        "http");
  }

  Waits.View view(Waitpoints.Created created) {
    return waitpoints.check(SESSION, created.waitpoint().id()).get(0);
  }

  List<String> wakes() {
    return inbox.wakes(SESSION);
  }

  /** Moves the clock, then runs the housekeeping tick as the server does every second. */
  void tick(Duration later) {
    clock.advance(later);
    waitpoints.sweep();
  }

  @Override
  public void close() {
    database.close();
  }

  /** The fields of {@code wait_create}. */
  static final class Request {
    String sessionId = SESSION;
    String label = "train resnet";
    String intent = "read the metrics";
    List<String> members;
    Object quorum;
    Boolean failFast;
    Integer maxSignals;
    Double expiresInHours;
    String device;

    Request members(String... names) {
      members = List.of(names);
      return this;
    }

    Request quorum(Object value) {
      quorum = value;
      return this;
    }

    Request failFast(boolean value) {
      failFast = value;
      return this;
    }

    Request maxSignals(int value) {
      maxSignals = value;
      return this;
    }

    Request expiresInHours(double value) {
      expiresInHours = value;
      return this;
    }

    Waits.Create toWire() {
      return new Waits.Create(
          sessionId,
          label,
          intent,
          members,
          quorum == null ? null : WireJson.mapper().valueToTree(quorum),
          failFast,
          maxSignals,
          expiresInHours,
          device);
    }
  }
}
