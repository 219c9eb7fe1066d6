package dev.cortex.server.waitpoints;

import dev.cortex.protocol.webhook.Waits;
import dev.cortex.storage.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivering wakes: a wake is claimed in one transaction (so that two threads never deliver it
 * both), put in the session's inbox under the key {@code waitpoint-wake:ID}, and marked delivered
 * in another. A session that cannot take it marks it delivered with the reason; any other failure
 * releases the claim for the next sweep. A claim left by a crash is released at the next start, and
 * the inbox's key makes the second delivery a no-op.
 */
final class WakeDelivery {
  private static final Logger log = LoggerFactory.getLogger(WakeDelivery.class);

  /** Wakes delivered per sweep at most. */
  static final int BATCH = 50;

  private final Supplier<Database> database;
  private final Waker waker;
  private final Clock clock;

  WakeDelivery(Supplier<Database> database, Waker waker, Clock clock) {
    this.database = database;
    this.waker = waker;
    this.clock = clock;
  }

  /** A wake claimed for delivery, with the text it puts before the agent. */
  private record Claimed(Wake wake, String text) {}

  /** Delivers the wakes that are due. */
  void deliverDue() {
    Instant now = clock.instant();
    for (Wake wake : database.get().read(c -> WakeStore.due(c, now, BATCH))) {
      deliver(wake.id());
    }
  }

  /** Releases the claims of wakes a crash left undelivered; how many. */
  int releaseClaims() {
    return database.get().write(WakeStore::releaseClaims);
  }

  /** Delivers one wake unless another thread has it; how the session took it, or null. */
  String deliver(long wakeId) {
    Instant now = clock.instant();
    Claimed claimed =
        database
            .get()
            .write(
                c -> {
                  if (!WakeStore.claim(c, wakeId, now)) {
                    return null;
                  }
                  Wake wake = WakeStore.get(c, wakeId);
                  return new Claimed(wake, text(c, wake));
                });
    if (claimed == null) {
      return null;
    }
    Wake wake = claimed.wake();
    try {
      String how = waker.wake(wake.sessionId(), claimed.text(), "waitpoint-wake:" + wake.id());
      delivered(wake, null);
      return how;
    } catch (WaitException e) {
      log.warn("a wake of {} cannot be delivered: {}", wake.waitpointId(), e.getMessage());
      delivered(wake, e.getMessage());
      return null;
    } catch (RuntimeException e) {
      log.warn("delivering a wake of {} failed; it is tried again", wake.waitpointId(), e);
      database
          .get()
          .write(
              c -> {
                WakeStore.unclaim(c, wake.id());
                return null;
              });
      return null;
    }
  }

  private void delivered(Wake wake, String error) {
    database
        .get()
        .write(
            c -> {
              WakeStore.delivered(c, wake.id(), clock.instant(), error);
              return null;
            });
  }

  private static String text(Connection c, Wake wake) throws SQLException {
    Waitpoint w = WaitStore.get(c, wake.waitpointId());
    int from = wake.firstRound() == null ? w.round() : wake.firstRound();
    int to = wake.lastRound() == null ? w.round() : wake.lastRound();
    List<Waits.Report> reports = WaitStore.reports(c, w.id(), from, to);
    if ("expired".equals(wake.kind())) {
      return WakeText.expired(w, wake, reports);
    }
    return WakeText.fire(w, wake, reports, to > from);
  }
}
