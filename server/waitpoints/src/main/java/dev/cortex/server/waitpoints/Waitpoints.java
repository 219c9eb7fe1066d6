package dev.cortex.server.waitpoints;

import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.storage.Database;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Waitpoints: a session registers one and ends its turn; outside programs signal it; when a round
 * of reports reaches its quorum (or a report fails, with fail_fast) it fires, and the session wakes
 * with the result.
 *
 * <p>Every signal is checked in one write transaction: unknown id, wrong secret, then ended
 * waitpoint (answered "resolved", nothing recorded), then a replayed signal id (answered
 * "duplicate"). A fire records the wake it owes in the same transaction; the wake is then put in
 * the session's inbox under a key of its own and marked delivered, so that a crash in between
 * delivers it after the restart, once. Progress reports are recorded and never wake. A quorum of
 * several waits the coalescing window for late reports of the same round; a waitpoint that wakes
 * its session more often than the hourly cap gets one warning, and its later wakes wait and come
 * together.
 */
public final class Waitpoints {
  private static final Logger log = LoggerFactory.getLogger(Waitpoints.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Progress reports kept per waitpoint (the newest). */
  static final int KEEP_PROGRESS = 50;

  /** The most signals one waitpoint records. */
  static final int MAX_SIGNALS_STORED = 10_000;

  /** Wakes delivered per sweep at most. */
  static final int DELIVERY_BATCH = 50;

  /** Reports and progress shown by wait_check. */
  static final int SHOWN_PROGRESS = 5;

  private static final Duration HOUR = Duration.ofHours(1);

  private final Supplier<Database> database;
  private final Waker waker;
  private final Supplier<WaitSettings> settings;
  private final Clock clock;

  public Waitpoints(
      Supplier<Database> database, Waker waker, Supplier<WaitSettings> settings, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.waker = Objects.requireNonNull(waker, "waker");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** A waitpoint just created and its secret, which is not kept. */
  public record Created(Waitpoint waitpoint, String secret) {}

  /**
   * Creates a waitpoint for a session.
   *
   * @param devices the devices of the registry, which {@code device} must name
   */
  public Created create(Waits.Create request, Set<String> devices) {
    String sessionId = request.sessionId();
    if (sessionId == null || sessionId.isBlank()) {
      throw new WaitException(
          Waits.Codes.NO_SESSION,
          "A waitpoint wakes the session that created it, and this call comes from none"
              + " (CORTEX_SESSION_ID is not set): call wait_create from a session of the agent"
              + " server.");
    }
    if (!waker.knows(sessionId)) {
      throw new WaitException(
          Waits.Codes.NO_SESSION, "The agent server has no session " + sessionId + ".");
    }
    String label = line("label", request.label(), Waits.MAX_LABEL);
    String intent = text("intent", request.intent(), Waits.MAX_INTENT);
    List<String> members = members(request.members());
    int quorum = quorum(request.quorum(), members);
    int maxSignals = request.maxSignals() == null ? 1 : request.maxSignals();
    if (maxSignals < 1 || maxSignals > Waits.MAX_SIGNALS) {
      throw WaitException.invalid(
          "max_signals must be 1 to " + Waits.MAX_SIGNALS + ", not " + maxSignals + ".");
    }
    double hours =
        request.expiresInHours() == null ? Waits.DEFAULT_EXPIRES_HOURS : request.expiresInHours();
    if (!(hours >= Waits.MIN_EXPIRES_HOURS && hours <= Waits.MAX_EXPIRES_HOURS)) {
      throw WaitException.invalid(
          "expires_in_hours must be 1 to 720 (30 days), not " + format(hours) + ".");
    }
    String device = request.device();
    if (device != null) {
      if (!Machines.NAME.matcher(device).matches() || !devices.contains(device)) {
        throw WaitException.invalid(
            "No device '"
                + clip(device)
                + "' is registered"
                + (devices.isEmpty()
                    ? " (machines.json lists none)."
                    : "; registered: " + String.join(", ", devices.stream().sorted().toList()))
                + ".");
      }
    }
    Instant now = clock.instant();
    String secret = secret();
    Waitpoint waitpoint =
        new Waitpoint(
            "wp-" + hex(6),
            sessionId,
            label,
            intent,
            members,
            quorum,
            request.failFast() == null || request.failFast(),
            maxSignals,
            device,
            sha256(secret),
            Waitpoint.State.OPEN,
            1,
            0,
            null,
            null,
            now,
            now.plusSeconds(Math.round(hours * 3600)),
            null);
    database
        .get()
        .write(
            c -> {
              if (WaitStore.waitingCount(c, sessionId) >= Waits.MAX_OPEN_PER_SESSION) {
                throw WaitException.invalid(
                    "This session waits on "
                        + Waits.MAX_OPEN_PER_SESSION
                        + " waitpoints already; cancel some (wait_cancel) first.");
              }
              WaitStore.insert(c, waitpoint);
              return null;
            });
    return new Created(waitpoint, secret);
  }

  private static String line(String name, String value, int max) {
    String text = text(name, value, max);
    if (text.chars().anyMatch(ch -> ch < 0x20)) {
      throw WaitException.invalid(name + " must be one line without control characters.");
    }
    return text;
  }

  private static String text(String name, String value, int max) {
    if (value == null || value.isBlank()) {
      throw WaitException.invalid(name + " is required and must not be blank.");
    }
    String text = value.strip();
    if (text.length() > max) {
      throw WaitException.invalid(
          name + " has " + text.length() + " characters; at most " + max + " are allowed.");
    }
    return text;
  }

  private static List<String> members(List<String> given) {
    if (given == null) {
      return null;
    }
    if (given.isEmpty() || given.size() > Waits.MAX_MEMBERS) {
      throw WaitException.invalid(
          "members must list 1 to "
              + Waits.MAX_MEMBERS
              + " names (leave it out when anyone may signal).");
    }
    Set<String> seen = new HashSet<>();
    for (String member : given) {
      if (member == null || !Signals.MEMBER.matcher(member).matches()) {
        throw WaitException.invalid(
            "'"
                + clip(member)
                + "' is not a member name: 1-64 letters, digits and . _ : @ -, starting with a"
                + " letter or digit.");
      }
      if (!seen.add(member)) {
        throw WaitException.invalid("members lists '" + member + "' twice.");
      }
    }
    return List.copyOf(given);
  }

  private static int quorum(JsonNode given, List<String> members) {
    if (given == null || given.isNull() || given.isMissingNode()) {
      return members == null ? 1 : members.size();
    }
    if (given.isString()) {
      if (!"all".equals(given.asString())) {
        throw WaitException.invalid(
            "quorum is a number or \"all\", not \"" + given.asString() + "\".");
      }
      if (members == null) {
        throw WaitException.invalid(
            "quorum \"all\" needs members: list who must report, or give a number.");
      }
      return members.size();
    }
    if (!given.isIntegralNumber() || !given.canConvertToInt()) {
      throw WaitException.invalid("quorum is a whole number or \"all\".");
    }
    int quorum = given.asInt();
    int max = members == null ? Waits.MAX_MEMBERS : members.size();
    if (quorum < 1 || quorum > max) {
      throw WaitException.invalid(
          "quorum must be 1 to "
              + max
              + (members == null ? "" : " (the number of members)")
              + ", not "
              + quorum
              + ".");
    }
    return quorum;
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
                    "Waitpoint " + id + " had already " + ended(w) + "; nothing changed.");
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

  private static String ended(Waitpoint w) {
    String when = w.endedAt() == null ? "" : " at " + w.endedAt();
    return switch (w.state()) {
      case RESOLVED -> "resolved" + when;
      case EXPIRED -> "expired" + when;
      case CANCELLED -> "been cancelled" + when;
      default -> "ended";
    };
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
      throw WaitException.invalid("id must look like wp-3fa2c1d0e4b5, not '" + clip(id) + "'.");
    }
    Waitpoint w = WaitStore.get(c, id);
    if (w == null || !w.sessionId().equals(sessionId)) {
      throw new WaitException(Waits.Codes.NOT_FOUND, "This session has no waitpoint " + id + ".");
    }
    return w;
  }

  /** What a signal did inside its transaction. */
  private record Step(Signals.Outcome outcome, Long wakeNow) {}

  /**
   * Takes a signal.
   *
   * @param via how it came: {@code cli}, {@code http}, {@code spool}, {@code device:<name>}
   * @throws WaitException when it is refused (nothing is recorded)
   */
  public Signals.Outcome signal(Signals.Signal signal, String via) {
    List<String> problems = Signals.problems(signal);
    if (!problems.isEmpty()) {
      String joined = String.join("; ", problems);
      throw WaitException.invalid(
          Character.toUpperCase(joined.charAt(0)) + joined.substring(1) + ".");
    }
    Instant now = clock.instant();
    Step step = database.get().write(c -> take(c, signal, via, now));
    if (step.wakeNow() == null) {
      return step.outcome();
    }
    String woke = deliver(step.wakeNow());
    Signals.Outcome outcome = step.outcome();
    return new Signals.Outcome(
        outcome.outcome(),
        outcome.waitpoint(),
        outcome.state(),
        outcome.fired(),
        outcome.message() + (woke == null ? "" : " The session: " + woke + "."));
  }

  private Step take(Connection c, Signals.Signal signal, String via, Instant now)
      throws SQLException {
    String id = signal.id();
    Waitpoint w = WaitStore.get(c, id);
    if (w == null) {
      throw new WaitException(
          Signals.Codes.UNKNOWN_WAITPOINT,
          "There is no waitpoint " + id + " (ended ones are kept for a while, then removed).");
    }
    if (!MessageDigest.isEqual(
        sha256(signal.secret()).getBytes(StandardCharsets.US_ASCII),
        w.secretSha256().getBytes(StandardCharsets.US_ASCII))) {
      throw new WaitException(
          Signals.Codes.BAD_SECRET, "The secret is not waitpoint " + id + "'s.");
    }
    if (!w.state().waiting()) {
      return new Step(
          new Signals.Outcome(
              Signals.Outcome.RESOLVED,
              id,
              w.state().wire(),
              false,
              "Waitpoint " + id + " had already " + ended(w) + "; the signal was not recorded."),
          null);
    }
    String signalId = signal.signalId() != null ? signal.signalId() : "sig-" + hex(12);
    if (signal.signalId() != null && WaitStore.hasSignal(c, id, signalId)) {
      return new Step(
          new Signals.Outcome(
              Signals.Outcome.DUPLICATE,
              id,
              w.state().wire(),
              false,
              "Signal " + signalId + " was recorded before; this copy changes nothing."),
          null);
    }
    if (w.members() != null) {
      if (signal.member() == null) {
        throw WaitException.invalid(
            "Waitpoint "
                + id
                + " waits for reports of "
                + String.join(", ", w.members())
                + ": say which member reports (member).");
      }
      if (!w.members().contains(signal.member())) {
        throw WaitException.invalid(
            "'"
                + signal.member()
                + "' is not a member of waitpoint "
                + id
                + "; its members: "
                + String.join(", ", w.members())
                + ".");
      }
    }
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
    if ("progress".equals(signal.status())) {
      WaitStore.pruneProgress(c, id, KEEP_PROGRESS);
      return new Step(
          new Signals.Outcome(
              Signals.Outcome.PROGRESS,
              id,
              w.state().wire(),
              false,
              "Progress recorded; progress never wakes the session."),
          null);
    }
    if ("fail".equals(signal.status()) && w.failFast()) {
      Long wake = fire(c, w, now);
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
      Instant until = now.plus(window);
      WaitStore.closing(c, id, until);
      return accepted(
          c,
          id,
          true,
          "The quorum is reached: the session wakes in "
              + window.toSeconds()
              + " s with the reports that arrive until then.",
          null);
    }
    Long wake = fire(c, w, now);
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

  /**
   * Fires the waitpoint's current round: records the wake it owes and starts the next round, or
   * resolves it.
   *
   * @return the wake to deliver now, or null when the hourly cap holds it back
   */
  private Long fire(Connection c, Waitpoint w, Instant now) throws SQLException {
    int round = w.round();
    String status = WaitStore.failed(c, w.id(), round, round) ? "fail" : "ok";
    boolean resolved = w.fires() + 1 >= w.maxSignals();
    Instant waitedFrom = w.lastFireAt() != null ? w.lastFireAt() : w.createdAt();
    WaitStore.fired(c, w, now, resolved);
    Long held = WaitStore.heldBack(c, w.id(), now);
    if (held != null) {
      WaitStore.extend(c, held, round, status);
      return null;
    }
    int cap = settings.get().maxWakesPerHour();
    List<Instant> dues = WaitStore.fireDues(c, w.id(), now.minus(HOUR));
    Instant due = now;
    String warning = null;
    if (dues.size() == cap) {
      warning =
          "this waitpoint has now woken you "
              + (cap + 1)
              + " times within an hour, above the cap of "
              + cap
              + " ([waitpoints] max_wakes_per_hour). Its signals are still recorded, but its"
              + " later wakes wait until the hour allows and then come together.";
    } else if (dues.size() > cap) {
      Instant allowed = dues.get(dues.size() - cap - 1).plus(HOUR);
      due = allowed.isAfter(now) ? allowed : now;
    }
    long wake = WaitStore.insertWake(c, w, "fire", round, status, warning, waitedFrom, now, due);
    return due.isAfter(now) ? null : wake;
  }

  /**
   * Housekeeping, run every second or so: rounds whose coalescing window passed fire, waitpoints
   * past their expiry end with a notice, due wakes are delivered, and waitpoints that ended long
   * ago are removed.
   */
  public void sweep() {
    Instant now = clock.instant();
    database
        .get()
        .write(
            c -> {
              for (String id : WaitStore.closingDue(c, now)) {
                fire(c, WaitStore.get(c, id), now);
              }
              for (String id : WaitStore.expiredDue(c, now)) {
                Waitpoint w = WaitStore.get(c, id);
                WaitStore.ended(c, id, Waitpoint.State.EXPIRED, now);
                WaitStore.insertWake(
                    c, w, "expired", w.round(), null, null, w.createdAt(), now, now);
              }
              int removed = WaitStore.prune(c, now.minus(settings.get().keepResolved()));
              if (removed > 0) {
                log.debug("removed {} waitpoint(s) that ended long ago", removed);
              }
              return null;
            });
    deliverDue();
  }

  /** After a start: wakes taken but not marked delivered before a crash are delivered again. */
  public void recover() {
    int released = database.get().write(WaitStore::releaseClaims);
    if (released > 0) {
      log.info("{} wake(s) of an earlier server are delivered again", released);
    }
    sweep();
  }

  /** Delivers the wakes that are due. */
  public void deliverDue() {
    Instant now = clock.instant();
    for (WaitStore.Wake wake : database.get().read(c -> WaitStore.due(c, now, DELIVERY_BATCH))) {
      deliver(wake.id());
    }
  }

  /** Delivers one wake unless another thread has it; how the session took it, or null. */
  private String deliver(long wakeId) {
    Instant now = clock.instant();
    Object[] claimed =
        database
            .get()
            .write(
                c -> {
                  if (!WaitStore.claim(c, wakeId, now)) {
                    return null;
                  }
                  WaitStore.Wake wake = WaitStore.wake(c, wakeId);
                  return new Object[] {wake, text(c, wake)};
                });
    if (claimed == null) {
      return null;
    }
    WaitStore.Wake wake = (WaitStore.Wake) claimed[0];
    String text = (String) claimed[1];
    try {
      String how = waker.wake(wake.sessionId(), text, "waitpoint-wake:" + wake.id());
      database
          .get()
          .write(
              c -> {
                WaitStore.delivered(c, wake.id(), clock.instant(), null);
                return null;
              });
      return how;
    } catch (WaitException e) {
      log.warn("a wake of {} cannot be delivered: {}", wake.waitpointId(), e.getMessage());
      database
          .get()
          .write(
              c -> {
                WaitStore.delivered(c, wake.id(), clock.instant(), e.getMessage());
                return null;
              });
      return null;
    } catch (RuntimeException e) {
      log.warn("delivering a wake of {} failed; it is tried again", wake.waitpointId(), e);
      database
          .get()
          .write(
              c -> {
                WaitStore.unclaim(c, wake.id());
                return null;
              });
      return null;
    }
  }

  private static String text(Connection c, WaitStore.Wake wake) throws SQLException {
    Waitpoint w = WaitStore.get(c, wake.waitpointId());
    int from = wake.firstRound() == null ? w.round() : wake.firstRound();
    int to = wake.lastRound() == null ? w.round() : wake.lastRound();
    List<dev.cortex.protocol.webhook.Waits.Report> reports = WaitStore.reports(c, w.id(), from, to);
    if ("expired".equals(wake.kind())) {
      return WakeText.expired(w, wake, reports);
    }
    return WakeText.fire(w, wake, reports, to > from);
  }

  static String sha256(String secret) {
    try {
      return HexFormat.of()
          .formatHex(
              MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String secret() {
    byte[] bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return "wps_" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String hex(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return HexFormat.of().formatHex(value);
  }

  private static String format(double hours) {
    return hours == Math.rint(hours) ? Long.toString((long) hours) : Double.toString(hours);
  }

  private static String clip(String value) {
    if (value == null) {
      return "";
    }
    return value.length() > 40 ? value.substring(0, 40) + "…" : value;
  }
}
