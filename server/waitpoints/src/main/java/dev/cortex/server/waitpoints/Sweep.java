package dev.cortex.server.waitpoints;

import dev.cortex.storage.Database;
import java.time.Instant;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The housekeeping of waitpoints, in one write transaction per tick: rounds whose coalescing window
 * passed fire, waitpoints past their expiry end with a notice, and waitpoints that ended longer ago
 * than {@code keep_resolved} (and owe no wake) are removed. Every time is the clock's now, so a
 * clock moved forward is seen at the next tick.
 */
final class Sweep {
  private static final Logger log = LoggerFactory.getLogger(Sweep.class);

  private final Supplier<Database> database;
  private final Firing firing;
  private final Supplier<WaitSettings> settings;

  Sweep(Supplier<Database> database, Firing firing, Supplier<WaitSettings> settings) {
    this.database = database;
    this.firing = firing;
    this.settings = settings;
  }

  void run(Instant now) {
    database
        .get()
        .write(
            c -> {
              for (String id : WaitStore.closingDue(c, now)) {
                firing.fire(c, WaitStore.get(c, id), now);
              }
              for (String id : WaitStore.expiredDue(c, now)) {
                Waitpoint w = WaitStore.get(c, id);
                WaitStore.ended(c, id, Waitpoint.State.EXPIRED, now);
                WakeStore.insert(c, w, "expired", w.round(), null, null, w.createdAt(), now, now);
              }
              int removed = WaitStore.prune(c, now.minus(settings.get().keepResolved()));
              if (removed > 0) {
                log.debug("removed {} waitpoint(s) that ended long ago", removed);
              }
              return null;
            });
  }
}
