package dev.cortex.server.waitpoints;

import dev.cortex.protocol.webhook.Signals;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Supplier;

/**
 * Taking one signal, inside one write transaction: unknown id, wrong secret, then an ended
 * waitpoint (answered "resolved", nothing recorded), then a replayed signal id (answered
 * "duplicate"), then the member; then the signal is recorded, and the round fires when a failure
 * fails fast or the quorum is reached (a quorum of several first waits the coalescing window).
 */
final class SignalIntake {
  /** Progress reports kept per waitpoint (the newest). */
  static final int KEEP_PROGRESS = 50;

  /** The most signals one waitpoint records. */
  static final int MAX_SIGNALS_STORED = 10_000;

  private final Firing firing;
  private final Supplier<WaitSettings> settings;

  SignalIntake(Firing firing, Supplier<WaitSettings> settings) {
    this.firing = firing;
    this.settings = settings;
  }

  /** What a signal did: its answer, and the wake to deliver now (null when none). */
  record Step(Signals.Outcome outcome, Long wakeNow) {}

  /** Refuses a signal whose fields are out of bounds, before any transaction. */
  static void checkFields(Signals.Signal signal) {
    List<String> problems = Signals.problems(signal);
    if (!problems.isEmpty()) {
      String joined = String.join("; ", problems);
      throw WaitException.invalid(
          Character.toUpperCase(joined.charAt(0)) + joined.substring(1) + ".");
    }
  }

  Step take(Connection c, Signals.Signal signal, String via, Instant now) throws SQLException {
    String id = signal.id();
    Waitpoint w = WaitStore.get(c, id);
    if (w == null) {
      throw new WaitException(
          Signals.Codes.UNKNOWN_WAITPOINT,
          "There is no waitpoint " + id + " (ended ones are kept for a while, then removed).");
    }
    if (!Secrets.matches(signal.secret(), w.secretSha256())) {
      throw new WaitException(
          Signals.Codes.BAD_SECRET, "The secret is not waitpoint " + id + "'s.");
    }
    if (!w.state().waiting()) {
      return unchanged(
          Signals.Outcome.RESOLVED,
          w,
          "Waitpoint "
              + id
              + " had already "
              + Phrases.ended(w)
              + "; the signal was not recorded.");
    }
    String signalId = signal.signalId() != null ? signal.signalId() : "sig-" + Secrets.hex(12);
    if (signal.signalId() != null && WaitStore.hasSignal(c, id, signalId)) {
      return unchanged(
          Signals.Outcome.DUPLICATE,
          w,
          "Signal " + signalId + " was recorded before; this copy changes nothing.");
    }
    checkMember(w, signal.member());
    if (WaitStore.signalCount(c, id) >= MAX_SIGNALS_STORED) {
      throw WaitException.invalid(
          "Waitpoint "
              + id
              + " has recorded "
              + MAX_SIGNALS_STORED
              + " signals; it takes no more.");
    }
    WaitStore.insertSignal(
        c,
        id,
        signalId,
        w.round(),
        signal.status(),
        signal.message(),
        signal.member(),
        signal.data(),
        via,
        now);
    return decide(c, w, signal.status(), now);
  }

  private static Step unchanged(String outcome, Waitpoint w, String message) {
    return new Step(new Signals.Outcome(outcome, w.id(), w.state().wire(), false, message), null);
  }

  private static void checkMember(Waitpoint w, String member) {
    if (w.members() == null) {
      return;
    }
    if (member == null) {
      throw WaitException.invalid(
          "Waitpoint "
              + w.id()
              + " waits for reports of "
              + String.join(", ", w.members())
              + ": say which member reports (member).");
    }
    if (!w.members().contains(member)) {
      throw WaitException.invalid(
          "'"
              + member
              + "' is not a member of waitpoint "
              + w.id()
              + "; its members: "
              + String.join(", ", w.members())
              + ".");
    }
  }

  /** After a signal is recorded: progress, a failure that fails fast, or the round's quorum. */
  private Step decide(Connection c, Waitpoint w, String status, Instant now) throws SQLException {
    String id = w.id();
    if ("progress".equals(status)) {
      WaitStore.pruneProgress(c, id, KEEP_PROGRESS);
      return unchanged(
          Signals.Outcome.PROGRESS, w, "Progress recorded; progress never wakes the session.");
    }
    if ("fail".equals(status) && w.failFast()) {
      Long wake = firing.fire(c, w, now);
      return accepted(c, id, true, "It failed, and the waitpoint fails fast: it fired.", wake);
    }
    if (w.state() == Waitpoint.State.CLOSING) {
      return accepted(
          c,
          id,
          false,
          "The quorum was reached already; this report joins the wake due at "
              + w.closingUntil()
              + ".",
          null);
    }
    int reporters = WaitStore.reporters(c, id, w.round());
    if (reporters < w.quorum()) {
      return accepted(
          c, id, false, reporters + " of " + w.quorum() + " needed reports are in.", null);
    }
    Duration window = settings.get().coalesce();
    if (w.quorum() > 1 && !window.isZero()) {
      WaitStore.closing(c, id, now.plus(window));
      return accepted(
          c,
          id,
          true,
          "The quorum is reached: the session wakes in "
              + window.toSeconds()
              + " s with the reports that arrive until then.",
          null);
    }
    Long wake = firing.fire(c, w, now);
    return accepted(c, id, true, "The quorum is reached: it fired.", wake);
  }

  private static Step accepted(Connection c, String id, boolean fired, String message, Long wake)
      throws SQLException {
    Waitpoint after = WaitStore.get(c, id);
    return new Step(
        new Signals.Outcome(
            Signals.Outcome.ACCEPTED, id, after.state().wire(), fired, "Recorded. " + message),
        wake);
  }
}
