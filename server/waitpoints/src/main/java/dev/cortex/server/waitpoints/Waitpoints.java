package dev.cortex.server.waitpoints;

import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.storage.Database;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waitpoints: a session registers one and ends its turn; outside programs signal it; when a round
 * of reports reaches its quorum (or a report fails, with fail_fast) it fires, and the session wakes
 * with the result.
 *
 * <p>The parts: {@link Creation} checks and inserts a new waitpoint; {@link SignalIntake} checks
 * and records a signal and decides whether the round fires, in one transaction; {@link Firing}
 * records the wake a fire owes, which {@link HourlyCap} may hold back; {@link Sweep} is the
 * housekeeping of coalescing windows, expiries and old waitpoints; {@link WakeDelivery} puts wakes
 * in the sessions' inboxes exactly once. Every time comes from the injected clock.
 */
public final class Waitpoints {
  private static final Logger log = LoggerFactory.getLogger(Waitpoints.class);

  /** Reports and progress shown by wait_check. */
  static final int SHOWN_PROGRESS = 5;

  private final Supplier<Database> database;
  private final Clock clock;
  private final Creation creation;
  private final SignalIntake intake;
  private final Sweep sweep;
  private final WakeDelivery delivery;

  public Waitpoints(
      Supplier<Database> database, Waker waker, Supplier<WaitSettings> settings, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    Objects.requireNonNull(waker, "waker");
    Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
    Firing firing = new Firing(settings);
    this.creation = new Creation(database, waker, clock);
    this.intake = new SignalIntake(firing, settings);
    this.sweep = new Sweep(database, firing, settings);
    this.delivery = new WakeDelivery(database, waker, clock);
  }

  /** A waitpoint just created and its secret, which is not kept. */
  public record Created(Waitpoint waitpoint, String secret) {}

  /**
   * Creates a waitpoint for a session.
   *
   * @param devices the devices of the registry, which {@code device} must name
   * @throws WaitException when it is refused (nothing is written)
   */
  public Created create(Waits.Create request, Set<String> devices) {
    return creation.create(request, devices);
  }

  /** The session's waitpoint {@code id}, or every one it waits on (id null). */
  public List<Waits.View> check(String sessionId, String id) {
    requireSession(sessionId);
    return database
        .get()
        .read(
            c -> {
              if (id != null) {
                return List.of(view(c, owned(c, sessionId, id)));
              }
              List<Waits.View> views = new ArrayList<>();
              for (Waitpoint w : WaitStore.waiting(c, sessionId)) {
                views.add(view(c, w));
              }
              return views;
            });
  }

  /** A waitpoint and the newest signals it received, oldest first. */
  public record Listed(Waitpoint waitpoint, List<Waits.Report> signals) {}

  /**
   * The newest {@code limit} waitpoints of every session in {@code states} (all when empty), newest
   * first, each with its newest {@code signals} signals: what the workbench lists.
   */
  public List<Listed> newest(List<Waitpoint.State> states, int limit, int signals) {
    return database
        .get()
        .read(
            c -> {
              List<Listed> listed = new ArrayList<>();
              for (Waitpoint w : WaitStore.newest(c, states, limit)) {
                listed.add(new Listed(w, WaitStore.signals(c, w.id(), signals)));
              }
              return listed;
            });
  }

  /** A waitpoint as the agent sees it. */
  public Waits.View view(Waitpoint w) {
    return database.get().read(c -> view(c, w));
  }

  private static Waits.View view(Connection c, Waitpoint w) throws SQLException {
    int round = w.round();
    return new Waits.View(
        w.id(),
        w.label(),
        w.intent(),
        w.state().wire(),
        w.members(),
        w.quorum(),
        w.failFast(),
        w.maxSignals(),
        w.fires(),
        w.round(),
        WaitStore.reports(c, w.id(), round, round),
        WaitStore.progress(c, w.id(), SHOWN_PROGRESS),
        w.device(),
        w.createdAt().toString(),
        w.expiresAt().toString(),
        w.endedAt() == null ? null : w.endedAt().toString());
  }

  /** Cancels the session's waitpoint {@code id}: it can no longer fire. */
  public Waits.Cancelled cancel(String sessionId, String id) {
    requireSession(sessionId);
    Instant now = clock.instant();
    return database
        .get()
        .write(
            c -> {
              Waitpoint w = owned(c, sessionId, id);
              if (!w.state().waiting()) {
                return new Waits.Cancelled(
                    id,
                    false,
                    w.state().wire(),
                    "Waitpoint " + id + " had already " + Phrases.ended(w) + "; nothing changed.");
              }
              WaitStore.ended(c, id, Waitpoint.State.CANCELLED, now);
              return new Waits.Cancelled(
                  id,
                  true,
                  Waitpoint.State.CANCELLED.wire(),
                  "Waitpoint "
                      + id
                      + " is cancelled: it will not fire, and signals to it are"
                      + " answered 'already resolved'.");
            });
  }

  private static void requireSession(String sessionId) {
    if (sessionId == null || sessionId.isBlank()) {
      throw new WaitException(
          Waits.Codes.NO_SESSION,
          "Waitpoints belong to sessions, and this call comes from none (CORTEX_SESSION_ID is not"
              + " set).");
    }
  }

  private static Waitpoint owned(Connection c, String sessionId, String id) throws SQLException {
    if (id == null || !Signals.WAITPOINT_ID.matcher(id).matches()) {
      throw WaitException.invalid(
          "id must look like wp-3fa2c1d0e4b5, not '" + Phrases.clip(id) + "'.");
    }
    Waitpoint w = WaitStore.get(c, id);
    if (w == null || !w.sessionId().equals(sessionId)) {
      throw new WaitException(Waits.Codes.NOT_FOUND, "This session has no waitpoint " + id + ".");
    }
    return w;
  }

  /**
   * Takes a signal; a wake it causes is delivered before the answer, which says how the session
   * took it.
   *
   * @param via how it came: {@code cli}, {@code http}, {@code spool}, {@code device:<name>}
   * @throws WaitException when it is refused (nothing is recorded)
   */
  public Signals.Outcome signal(Signals.Signal signal, String via) {
    SignalIntake.checkFields(signal);
    Instant now = clock.instant();
    SignalIntake.Step step = database.get().write(c -> intake.take(c, signal, via, now));
    if (step.wakeNow() == null) {
      return step.outcome();
    }
    String woke = delivery.deliver(step.wakeNow());
    Signals.Outcome outcome = step.outcome();
    return new Signals.Outcome(
        outcome.outcome(),
        outcome.waitpoint(),
        outcome.state(),
        outcome.fired(),
        outcome.message() + (woke == null ? "" : " The session: " + woke + "."));
  }

  /**
   * Housekeeping, run every second or so: rounds whose coalescing window passed fire, waitpoints
   * past their expiry end with a notice, due wakes are delivered, and waitpoints that ended long
   * ago are removed.
   */
  public void sweep() {
    sweep.run(clock.instant());
    delivery.deliverDue();
  }

  /** After a start: wakes taken but not marked delivered before a crash are delivered again. */
  public void recover() {
    int released = delivery.releaseClaims();
    if (released > 0) {
      log.info("{} wake(s) of an earlier server are delivered again", released);
    }
    sweep();
  }

  /** Delivers the wakes that are due. */
  public void deliverDue() {
    delivery.deliverDue();
  }
}
