package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.storage.Database;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The questions and plan approvals of sessions, kept in the {@code interactions} area until a
 * person answers (the first answer wins), the TTL passes by the clock, or the asking call gives up.
 * A blocking call waits by asking {@link #await} again and again, so that it can ask a server
 * started anew: the record outlives a restart. The answer to a question that did not block goes to
 * its session as a message, once (the inbox's key {@code interaction-answer:ID}); an unanswered one
 * expires without a word. Ended interactions are forgotten after {@link #RETENTION}.
 */
final class InteractionService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(InteractionService.class);

  /** How long an ended interaction is kept for people and tools to look at. */
  static final Duration RETENTION = Duration.ofDays(7);

  /** The environment setting that shortens (or lengthens) the TTL, for tests: seconds. */
  static final String TTL_SETTING = "CORTEX_INTERACTION_TTL_SECONDS";

  /** How often the store is pruned. */
  private static final Duration PRUNE_EVERY = Duration.ofHours(1);

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Supplier<Database> database;
  private final SessionService sessions;
  private final Duration ttl;
  private final Clock clock;
  private final Object changes = new Object();
  private volatile boolean closed;
  private Instant nextPrune = Instant.MIN;

  InteractionService(
      Supplier<Database> database, SessionService sessions, Duration ttl, Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.sessions = Objects.requireNonNull(sessions, "sessions");
    this.ttl = Objects.requireNonNull(ttl, "ttl");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The TTL that {@code env} sets ({@link #TTL_SETTING}), else seed 001's 30 minutes. */
  static Duration ttl(java.util.Map<String, String> env) {
    String value = env.get(TTL_SETTING);
    if (value == null || value.isBlank()) {
      return Duration.ofSeconds(Interactions.DEFAULT_TTL_SECONDS);
    }
    try {
      long seconds = Long.parseLong(value.strip());
      if (seconds >= 1 && seconds <= 86_400) {
        return Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // falls through
    }
    throw new dev.cortex.base.StartupException(
        TTL_SETTING + " must be a number of seconds from 1 to 86400, got '" + value + "'.");
  }

  /** What changed: a question or plan of {@code session} opened or ended ({@code state}). */
  record Change(String session, String id, String kind, String state) {}

  private final java.util.List<java.util.function.Consumer<Change>> listeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  /** Hears every question or plan that opens or ends, on the thread that made the change. */
  void onChange(java.util.function.Consumer<Change> listener) {
    listeners.add(listener);
  }

  private final java.util.List<java.util.function.Consumer<String>> stateListeners =
      new java.util.concurrent.CopyOnWriteArrayList<>();

  /**
   * Hears the id of every session whose waiting for a person or planning may have changed (a
   * question or plan opened or ended, planning began or ended), after the change was stored.
   */
  void onSessionState(java.util.function.Consumer<String> listener) {
    stateListeners.add(listener);
  }

  private void changed(String session, String id, String kind, String state) {
    Change change = new Change(session, id, kind, state);
    for (java.util.function.Consumer<Change> listener : listeners) {
      try {
        listener.accept(change);
      } catch (RuntimeException e) {
        log.debug("a listener of interaction changes failed: {}", e.toString());
      }
    }
    sessionStateChanged(session);
  }

  private void sessionStateChanged(String session) {
    for (java.util.function.Consumer<String> listener : stateListeners) {
      try {
        listener.accept(session);
      } catch (RuntimeException e) {
        log.debug("a listener of session states failed: {}", e.toString());
      }
    }
  }

  Interactions.Opened ask(Interactions.Ask ask) {
    Session session = session(ask.sessionId());
    return open(session, Interactions.QUESTION, ask.blocks(), ask.level(), json(ask.questions()));
  }

  Interactions.Opened submitPlan(Interactions.PlanSubmit submit) {
    Session session = session(submit.sessionId());
    PlanFile.Read plan = PlanFile.read(session.workingDirectory(), submit.planFilePath());
    return open(
        session,
        Interactions.PLAN,
        true,
        "info",
        json(
            new Interactions.Plan(
                submit.planFilePath(), plan.relative(), plan.text(), submit.summary())));
  }

  Interactions.PlanEntered enterPlan(Interactions.PlanEnter enter) {
    Session session = session(enter.sessionId());
    Instant now = clock.instant();
    database
        .get()
        .write(
            c -> {
              InteractionStore.planning(c, session.id(), enter.reasoning(), now);
              return null;
            });
    sessionStateChanged(session.id());
    return new Interactions.PlanEntered(session.id(), now.toString());
  }

  private Interactions.Opened open(
      Session session, String kind, boolean blocking, String level, String payload) {
    Instant now = clock.instant();
    InteractionStore.Row row =
        new InteractionStore.Row(
            newId(),
            session.id(),
            kind,
            blocking,
            level,
            payload,
            Interactions.OPEN,
            now,
            now.plus(ttl),
            null,
            null,
            null);
    database
        .get()
        .write(
            c -> {
              if (InteractionStore.openCount(c, session.id())
                  >= Interactions.MAX_OPEN_PER_SESSION) {
                throw new CodedException(
                    Interactions.Codes.TOO_MANY_OPEN,
                    "This session has "
                        + Interactions.MAX_OPEN_PER_SESSION
                        + " questions or plans open already; wait for their answers first.");
              }
              InteractionStore.insert(c, row);
              return null;
            });
    log.info("{} {} opened for session {}", kind, row.id(), session.id());
    changed(session.id(), row.id(), kind, Interactions.OPEN);
    return new Interactions.Opened(row.view(), (int) ttl.toSeconds());
  }

  /**
   * The interaction of the calling session as it stands once it ended, or after {@code
   * waitSeconds}, whichever comes first.
   */
  Interactions.View await(Interactions.Await await) {
    long until = System.nanoTime() + Duration.ofSeconds(await.waitOrDefault()).toNanos();
    while (true) {
      InteractionStore.Row row = ofSession(await.sessionId(), await.id());
      if (!row.open()) {
        return row.view();
      }
      if (!clock.instant().isBefore(row.expiresAt())) {
        expire(row.id());
        continue;
      }
      if (closed) {
        throw new CodedException(
            dev.cortex.base.ErrorCodes.UNAVAILABLE,
            "The agent server is stopping; ask the next one (the request is kept).");
      }
      long left = until - System.nanoTime();
      if (left <= 0) {
        return row.view();
      }
      synchronized (changes) {
        try {
          changes.wait(Math.max(1, Math.min(Duration.ofNanos(left).toMillis(), 500)));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return row.view();
        }
      }
    }
  }

  /** The asking call gave up: its open interaction is cancelled. */
  Interactions.View cancel(Interactions.Cancel cancel) {
    InteractionStore.Row row = ofSession(cancel.sessionId(), cancel.id());
    if (row.open()) {
      end(row.id(), Interactions.CANCELLED, null);
    }
    return get(row.id()).view();
  }

  Interactions.Listed list(Interactions.Listing listing) {
    String sessionId = listing.session() == null ? null : person(listing.session()).id();
    List<InteractionStore.Row> rows =
        database.get().read(c -> InteractionStore.list(c, sessionId, listing.everyState(), 500));
    return new Interactions.Listed(rows.stream().map(InteractionStore.Row::view).toList());
  }

  Interactions.View show(String id) {
    return expireIfDue(get(id)).view();
  }

  /** A person's answer: the first wins; a later one is told {@code ALREADY_ANSWERED}. */
  Interactions.View answer(Interactions.Answer answer) {
    InteractionStore.Row row = expireIfDue(get(answer.id()));
    refuseEnded(row);
    Interactions.Answered answered = Answers.check(row.view(), answer, clock.instant());
    if (!end(row.id(), Interactions.ANSWERED, answered)) {
      refuseEnded(get(row.id()));
    }
    if (row.kind().equals(Interactions.PLAN) && Boolean.TRUE.equals(answered.approved())) {
      database
          .get()
          .write(
              c -> {
                InteractionStore.donePlanning(c, row.sessionId());
                return null;
              });
      sessionStateChanged(row.sessionId());
    }
    InteractionStore.Row ended = get(row.id());
    if (!ended.blocking()) {
      deliver(ended);
    }
    log.info("{} {} answered via {}", row.kind(), row.id(), answered.via());
    return ended.view();
  }

  /** What the session waits for a person to answer: {@code question}, {@code plan}, or null. */
  String waitingFor(String sessionId) {
    return database.get().read(c -> InteractionStore.waitingFor(c, sessionId));
  }

  boolean planning(String sessionId) {
    return database.get().read(c -> InteractionStore.isPlanning(c, sessionId));
  }

  /**
   * Expires what the TTL has passed, delivers the answers that a session still lacks, and prunes
   * what ended long ago; the server's housekeeping calls it every second.
   */
  void sweep() {
    Instant now = clock.instant();
    for (String id : database.get().read(c -> InteractionStore.expiredDue(c, now))) {
      expire(id);
    }
    for (InteractionStore.Row row : database.get().read(InteractionStore::undelivered)) {
      deliver(row);
    }
    if (!now.isBefore(nextPrune)) {
      nextPrune = now.plus(PRUNE_EVERY);
      int pruned =
          database
              .get()
              .write(
                  c ->
                      InteractionStore.prune(c, now.minus(RETENTION))
                          + InteractionStore.prunePlanning(c, now.minus(RETENTION)));
      if (pruned > 0) {
        log.info("{} interaction record(s) ended over {} days ago forgotten", pruned, 7);
      }
    }
  }

  /**
   * Ends every wait at once, answering {@code UNAVAILABLE}: the server is stopping, and the callers
   * ask the next one.
   */
  @Override
  public void close() {
    closed = true;
    synchronized (changes) {
      changes.notifyAll();
    }
  }

  private void deliver(InteractionStore.Row row) {
    try {
      sessions.wake(
          row.sessionId(),
          Answers.message(row.view()),
          "interaction",
          "interaction-answer:" + row.id());
    } catch (SessionException e) {
      log.warn("the answer of {} cannot reach its session: {}", row.id(), e.getMessage());
    } catch (RuntimeException e) {
      log.warn("delivering the answer of {} failed; it is tried again", row.id(), e);
      return;
    }
    database
        .get()
        .write(
            c -> {
              InteractionStore.delivered(c, row.id(), clock.instant());
              return null;
            });
  }

  private InteractionStore.Row expireIfDue(InteractionStore.Row row) {
    if (row.open() && !clock.instant().isBefore(row.expiresAt())) {
      expire(row.id());
      return get(row.id());
    }
    return row;
  }

  private void expire(String id) {
    if (end(id, Interactions.EXPIRED, null)) {
      log.info("interaction {} expired unanswered", id);
    }
  }

  private boolean end(String id, String state, Interactions.Answered answered) {
    Instant now = clock.instant();
    boolean ended =
        database
            .get()
            .write(
                c ->
                    InteractionStore.end(
                        c,
                        id,
                        state,
                        now,
                        answered == null ? null : answered.by(),
                        answered == null ? null : answered.via(),
                        answered == null ? null : json(answered)));
    synchronized (changes) {
      changes.notifyAll();
    }
    if (ended) {
      InteractionStore.Row row = database.get().read(c -> InteractionStore.get(c, id));
      if (row != null) {
        changed(row.sessionId(), row.id(), row.kind(), state);
      }
    }
    return ended;
  }

  private static void refuseEnded(InteractionStore.Row row) {
    switch (row.state()) {
      case Interactions.OPEN -> {
        // still open
      }
      case Interactions.ANSWERED ->
          throw new CodedException(
              Interactions.Codes.ALREADY_ANSWERED,
              "Request " + row.id() + " was already answered; the first answer counts.");
      case Interactions.EXPIRED ->
          throw new CodedException(
              Interactions.Codes.EXPIRED,
              "Request " + row.id() + " expired unanswered; it can no longer be answered.");
      default ->
          throw new CodedException(
              Interactions.Codes.CANCELLED,
              "Request "
                  + row.id()
                  + " was withdrawn (the asking call gave up); it can no longer be answered.");
    }
  }

  private InteractionStore.Row get(String id) {
    InteractionStore.Row row = database.get().read(c -> InteractionStore.get(c, id));
    if (row == null) {
      throw new CodedException(Interactions.Codes.NOT_FOUND, "No request " + id + ".");
    }
    return row;
  }

  private InteractionStore.Row ofSession(String sessionId, String id) {
    InteractionStore.Row row = database.get().read(c -> InteractionStore.get(c, id));
    if (row == null || !row.sessionId().equals(sessionId)) {
      throw new CodedException(
          Interactions.Codes.NOT_FOUND, "This session has no request " + id + ".");
    }
    return row;
  }

  /** The calling session of a tool. */
  private Session session(String sessionId) {
    try {
      Session session = sessions.get(sessionId);
      if (session.id().equals(sessionId)) {
        return session;
      }
    } catch (SessionException e) {
      // answered below
    }
    throw new CodedException(
        Interactions.Codes.NO_SESSION,
        "The agent server has no session " + sessionId + "; questions belong to its sessions.");
  }

  /** A session a person names, by id or name. */
  private Session person(String idOrName) {
    try {
      return sessions.get(idOrName);
    } catch (SessionException e) {
      throw new CodedException(e.code(), e.getMessage());
    }
  }

  private static String newId() {
    byte[] bytes = new byte[6];
    RANDOM.nextBytes(bytes);
    return "ia-" + HexFormat.of().formatHex(bytes);
  }

  private static String json(Object value) {
    return WireJson.mapper().writeValueAsString(value);
  }
}
