package dev.cortex.server.waitpoints;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * Firing a waitpoint's current round, inside its caller's transaction: the waitpoint starts its
 * next round or resolves, and the wake it owes is recorded, due now or, past the hourly cap, once
 * the hour allows. A fire while a wake of the waitpoint is held back joins that wake.
 */
final class Firing {
  private final Supplier<WaitSettings> settings;

  Firing(Supplier<WaitSettings> settings) {
    this.settings = settings;
  }

  /**
   * Fires {@code w}'s current round.
   *
   * @return the wake to deliver now, or null when the hourly cap holds it back
   */
  Long fire(Connection c, Waitpoint w, Instant now) throws SQLException {
    int round = w.round();
    String status = WaitStore.failed(c, w.id(), round, round) ? "fail" : "ok";
    boolean resolved = w.fires() + 1 >= w.maxSignals();
    Instant waitedFrom = w.lastFireAt() != null ? w.lastFireAt() : w.createdAt();
    WaitStore.fired(c, w, now, resolved);
    Long held = WakeStore.heldBack(c, w.id(), now);
    if (held != null) {
      WakeStore.extend(c, held, round, status);
      return null;
    }
    List<Instant> dues = WakeStore.fireDues(c, w.id(), now.minus(HourlyCap.HOUR));
    HourlyCap.Decision decision = new HourlyCap(settings.get().maxWakesPerHour()).decide(dues, now);
    long wake =
        WakeStore.insert(
            c, w, "fire", round, status, decision.warning(), waitedFrom, now, decision.due());
    return decision.due().isAfter(now) ? null : wake;
  }
}
