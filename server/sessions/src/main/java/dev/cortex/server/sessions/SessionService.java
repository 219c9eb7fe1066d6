package dev.cortex.server.sessions;

import dev.cortex.models.ModelPrices;
import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.Transcript;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sessions of the agent server and their turns. One turn runs per session (so per channel) at a
 * time; a message that arrives meanwhile is offered to the running turn when its backend
 * acknowledges messages, else it waits in the session's inbox for the next turn, which starts as
 * soon as the running one ends. A message is delivered — and written to the transcript, once — when
 * the backend acknowledges it (a backend that does not acknowledge has its turn's prompt once the
 * turn started); what a turn was offered and did not acknowledge goes back to the head of the queue
 * when it ends, and after a crash at the next start. Every turn is an execution with its costs; its
 * events become the transcript. A backend that crashes ends its turn failed and leaves the session
 * usable; a turn that runs longer than {@code max_turn} by the clock is stopped at the next {@link
 * #sweep} and fails; after a restart, a turn that was running is marked interrupted and waiting
 * messages are delivered.
 *
 * <p>The work is shared out: {@link Creation} makes sessions, {@link Deliveries} takes messages,
 * {@link Turns} runs them, {@link Followers} hear what happens.
 */
public final class SessionService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionService.class);

  /** The most listeners one session's live events may have (chats, followers). */
  static final int MAX_FOLLOWERS = 32;

  /** The longest message, in characters. */
  static final int MAX_MESSAGE = 1_000_000;

  /** How long a send waits for the running turn to acknowledge the message it was offered. */
  static final Duration ACK_WAIT = Duration.ofSeconds(2);

  /**
   * The most sends that wait for an acknowledgement at once, across the server: a send beyond them
   * answers at once ({@code offered}), so that a burst of sends to slow agents cannot hold the
   * server's threads.
   */
  static final int MAX_ACK_WAITS = 16;

  /**
   * How long the inbox remembers a delivered message (its number, key and state; the transcript
   * keeps its text): a wake of its key sent again within it is no new message.
   */
  static final Duration DELIVERED_KEPT = Duration.ofDays(30);

  /** How often {@link #sweep} prunes the inbox. */
  static final Duration PRUNE_EVERY = Duration.ofHours(1);

  /** A new turn started with the message, as its prompt. */
  public static final String STARTED = "started";

  /** The running turn's backend acknowledged the message: it has it. */
  public static final String INJECTED = "injected";

  /** The running turn was given the message and has not acknowledged it yet. */
  public static final String OFFERED = "offered";

  /** The message waits for the next turn. */
  public static final String QUEUED = "queued";

  /**
   * The message had been sent before (a wake of the same key) and was delivered; a repeat of one
   * still offered or queued is answered {@link #OFFERED} or {@link #QUEUED}, as the first stands.
   */
  public static final String DELIVERED = "delivered";

  private final SessionStore store;
  private final Costs costs;
  private final Supplier<Budgets> budgets;
  private final Clock clock;
  private final Creation creation;
  private final Followers followers = new Followers(MAX_FOLLOWERS);
  private final Turns turns;
  private final Deliveries deliveries;

  /** When {@link #sweep} prunes the inbox next (the housekeeping thread's alone). */
  private Instant nextPrune = Instant.MIN;

  /**
   * @param backends the backends by name, in the order an unknown one's refusal lists them
   */
  public SessionService(
      SessionStore store,
      Executions executions,
      Costs costs,
      Map<String, Backend> backends,
      SessionEnvironment environment,
      Supplier<Budgets> budgets,
      SessionSettings settings,
      ModelPrices prices,
      Clock clock,
      AllowlistCheck allowlists) {
    this(
        store,
        executions,
        costs,
        backends,
        environment,
        budgets,
        settings,
        prices,
        clock,
        allowlists,
        new AckWaits(MAX_ACK_WAITS, ACK_WAIT));
  }

  SessionService(
      SessionStore store,
      Executions executions,
      Costs costs,
      Map<String, Backend> backends,
      SessionEnvironment environment,
      Supplier<Budgets> budgets,
      SessionSettings settings,
      ModelPrices prices,
      Clock clock,
      AllowlistCheck allowlists,
      AckWaits ackWaits) {
    this.store = Objects.requireNonNull(store, "store");
    this.costs = Objects.requireNonNull(costs, "costs");
    this.budgets = Objects.requireNonNull(budgets, "budgets");
    this.clock = Objects.requireNonNull(clock, "clock");
    Map<String, Backend> byName = Collections.unmodifiableMap(new LinkedHashMap<>(backends));
    this.creation =
        new Creation(
            store,
            byName,
            Objects.requireNonNull(settings, "settings"),
            Objects.requireNonNull(allowlists, "allowlists"),
            clock,
            Objects.requireNonNull(environment, "environment")::groupsOf);
    this.turns =
        new Turns(
            store,
            Objects.requireNonNull(executions, "executions"),
            costs,
            Objects.requireNonNull(prices, "prices"),
            byName,
            Objects.requireNonNull(environment, "environment"),
            budgets,
            settings.maxTurn(),
            clock,
            followers);
    this.deliveries =
        new Deliveries(store.inbox(), turns, Objects.requireNonNull(ackWaits, "ackWaits"));
  }

  /**
   * The source of a message a schedule's fire sends ({@code schedule:<id>}): the turn that takes it
   * has {@code CORTEX_SCHEDULE_TASK_ID}.
   */
  public static final String SCHEDULE_SOURCE = "schedule:";

  /**
   * The source of a message a callback sends ({@code callback:<source>}): the turn that takes it
   * has {@code CORTEX_CALLBACK_SOURCE}.
   */
  public static final String CALLBACK_SOURCE = "callback:";

  /**
   * A new session.
   *
   * @param name null for {@code cortex-<6 hex>}
   * @param channel null for {@code cli:<name>}
   * @param backend null for the settings' default
   */
  public record NewSession(
      String name,
      String channel,
      String project,
      String backend,
      String model,
      String thinking,
      String mode,
      Session.Composition composition,
      Session.StartedBy startedBy,
      List<String> program,
      Path workingDirectory,
      List<String> toolAllowlist) {}

  /**
   * Why a session on {@code backend} with {@code model} (null: the default) could not be created,
   * in a sentence; null when it could, as far as the backend and model go. Lets a caller that
   * creates several sessions refuse them all before it creates any.
   */
  public String unfit(String backend, String model) {
    return creation.unfit(backend, model);
  }

  public Session create(NewSession request) throws SessionException {
    return created(creation.create(request));
  }

  /**
   * A new session asked for by one of this server's own front doors (the web workbench, the Slack
   * adapter): it may be on a {@code web:}, {@code slack:} or {@code feishu:} channel, which the
   * session API refuses to its callers.
   */
  public Session createFromFrontDoor(NewSession request) throws SessionException {
    return created(creation.create(request, true));
  }

  private Session created(Session session) {
    followers.publish(session.id(), new Update.Created());
    return session;
  }

  /**
   * Records an entry the server itself adds to a session's transcript (e.g. a file delivered by a
   * tool), in the running turn if one runs, and publishes it to the session's followers.
   */
  public Transcript.Entry record(String sessionId, Transcript.Kind kind, String body)
      throws SessionException {
    Session session = get(sessionId);
    Transcript.Entry entry = store.append(session.id(), runningExecution(session.id()), kind, body);
    followers.publish(session.id(), entry);
    return entry;
  }

  public List<Session> list(int limit) {
    return store.list(limit);
  }

  /** The last thing the agent said in the turn {@code executionId} of a session, or null. */
  public String lastSaid(String sessionId, String executionId) {
    Transcript.Entry entry = store.lastOf(sessionId, executionId, Transcript.Kind.ASSISTANT);
    if (entry == null) {
      return null;
    }
    try {
      return dev.cortex.base.Json.mapper().readTree(entry.body()).path("text").asString(null);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** The session on {@code channel} (one agent runs per channel), or null. */
  public Session findByChannel(String channel) {
    return store.findByChannel(channel);
  }

  public Session get(String idOrName) throws SessionException {
    Session session = store.find(idOrName);
    if (session == null) {
      throw new SessionException(SessionException.NOT_FOUND, "No session '" + idOrName + "'.");
    }
    return session;
  }

  /** The execution of the turn running in a session, or null. */
  public String runningExecution(String sessionId) {
    LiveTurn turn = turns.running(sessionId);
    return turn == null ? null : turn.executionId;
  }

  /**
   * What became of a message.
   *
   * @param status {@link #STARTED}, {@link #INJECTED}, {@link #OFFERED}, {@link #QUEUED} or {@link
   *     #DELIVERED}
   * @param executionId the turn that has it, or the one running (null when it went back to the
   *     queue)
   * @param inboxSeq the message's number in the session's inbox
   */
  public record Delivery(String status, String executionId, long inboxSeq) {}

  /** Sends a message to a session's agent. */
  public Delivery send(String idOrName, String text, String source) throws SessionException {
    if (text == null || text.isBlank()) {
      throw Creation.invalid("The message is empty.");
    }
    if (text.length() > MAX_MESSAGE) {
      throw Creation.invalid("The message is longer than 1,000,000 characters.");
    }
    Session session = get(idOrName);
    String refusal = budgets.get().refusal(costs, session.project(), clock);
    if (refusal != null) {
      throw new SessionException(SessionException.BUDGET_EXCEEDED, refusal);
    }
    return deliveries.deliver(session, text, source, null, true);
  }

  /**
   * Wakes a session with a message from outside it (a waitpoint's result), once per {@code key}:
   * the same key again, e.g. after a restart, does not send the message twice. Budgets are checked
   * when the turn starts, not here: a wake is never lost to a refusal. It does not wait for the
   * running turn's acknowledgement (the server's housekeeping delivers wakes too): a wake offered
   * to it is answered {@code offered} unless it took it already.
   *
   * @return what became of the message; for a key taken before, what became of the first (the
   *     inbox's state of it: {@code delivered}, {@code offered} or {@code queued})
   */
  public Delivery wake(String sessionId, String text, String source, String key)
      throws SessionException {
    Session session = get(sessionId);
    return deliveries.deliver(session, text, source, Objects.requireNonNull(key, "key"), false);
  }

  /** Stops the turn running in a session; false when none runs. */
  public boolean stop(String idOrName, String reason) throws SessionException {
    LiveTurn running = turns.running(get(idOrName).id());
    return running != null && running.stop(reason);
  }

  public List<Transcript.Entry> transcript(String idOrName, long after, int limit)
      throws SessionException {
    return store.transcript(get(idOrName).id(), after, limit);
  }

  /** The {@code limit} entries just before {@code before}, oldest first. */
  public List<Transcript.Entry> transcriptBefore(String idOrName, long before, int limit)
      throws SessionException {
    return store.transcriptBefore(get(idOrName).id(), before, limit);
  }

  /** A live event of a session: its creation, a transcript entry, or the end of a turn. */
  public sealed interface Update {
    /** The session was created (only followers of every session hear it). */
    record Created() implements Update {}

    record Entry(Transcript.Entry entry) implements Update {}

    record TurnEnded(String executionId, Execution.Status status, String error) implements Update {}

    /** The inbox message {@code inboxSeq} was taken by the turn {@code executionId}. */
    record Delivered(long inboxSeq, String executionId) implements Update {}

    /**
     * The inbox message {@code inboxSeq} went back to the queue: the turn {@code executionId} it
     * was offered to ended without acknowledging it.
     */
    record Returned(long inboxSeq, String executionId) implements Update {}

    /**
     * The inbox message {@code inboxSeq} went back to the queue: the turn {@code executionId} it
     * would have started was refused ({@code refusal} says why, e.g. a spent budget); it waits for
     * the first turn that may start.
     */
    record Refused(long inboxSeq, String executionId, String refusal) implements Update {}
  }

  /**
   * Follows every session live: {@code listener} hears, with the session's id, each transcript
   * entry and turn end of any session from now on, on the thread that recorded it (keep it quick).
   */
  public Subscription followAll(java.util.function.BiConsumer<String, Update> listener) {
    return followers.followAll(listener);
  }

  /** Stops following. */
  @FunctionalInterface
  public interface Subscription extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Follows a session live: {@code listener} hears each transcript entry and turn end from now on
   * (on the thread that records it).
   */
  public Subscription follow(String sessionId, Consumer<Update> listener) throws SessionException {
    return followers.follow(sessionId, listener);
  }

  /**
   * After a start, before the server takes any message or signal: executions of a process that died
   * are marked stale, a turn that was running is marked interrupted, and messages offered to a turn
   * of the earlier server and not acknowledged go back to the head of their queue. Then {@link
   * #startQueued} delivers what waits.
   */
  public void recover() {
    turns.recover();
  }

  /** Starts a turn in every session whose messages wait: after {@link #recover}, once listening. */
  public void startQueued() {
    turns.startQueued();
  }

  /**
   * Stops the turns that have run longer than {@code max_turn} by the clock; they fail. The agent
   * server's housekeeping calls this every second.
   */
  public void sweep() {
    turns.expireOverdue();
    Instant now = clock.instant();
    if (!now.isBefore(nextPrune)) {
      nextPrune = now.plus(PRUNE_EVERY);
      int pruned = store.inbox().prune(now.minus(DELIVERED_KEPT));
      if (pruned > 0) {
        log.info(
            "{} inbox message(s) delivered over {} days ago forgotten",
            pruned,
            DELIVERED_KEPT.toDays());
      }
    }
  }

  /** Stops every running turn: the server is shutting down. */
  @Override
  public void close() {
    turns.close();
  }
}
