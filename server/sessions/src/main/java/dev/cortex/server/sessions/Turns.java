package dev.cortex.server.sessions;

import dev.cortex.models.ModelPrices;
import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.backend.BackendEvent;
import dev.cortex.server.sessions.backend.BackendException;
import dev.cortex.server.sessions.backend.TurnRequest;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Inbox;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.Transcript;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The turns of the sessions: one runs per session at a time, started with the messages queued in
 * its inbox; its backend's events become transcript entries, costs and acknowledgements of the
 * messages it was given ({@link Offers}); its end finishes its execution, puts back in the queue
 * what it did not acknowledge, and starts the next turn when messages wait. A turn still running
 * after max_turn, by the clock, is stopped at the next {@link #expireOverdue} and fails.
 */
final class Turns implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Turns.class);

  /** Why a turn failed whose backend broke as it started (the details are in the server's log). */
  static final String COULD_NOT_START =
      "the backend could not start the turn because of an error in the agent server; its log has"
          + " the details";

  private final SessionStore store;
  private final Inbox inbox;
  private final Offers offers;
  private final Executions executions;
  private final Costs costs;
  private final ModelPrices prices;
  private final Map<String, Backend> backends;
  private final SessionEnvironment environment;
  private final Supplier<Budgets> budgets;
  private final Duration maxTurn;
  private final Clock clock;
  private final Followers followers;
  private final Map<String, LiveTurn> live = new ConcurrentHashMap<>();
  private final Map<String, Object> locks = new ConcurrentHashMap<>();
  private final ExecutorService starter =
      Executors.newCachedThreadPool(
          r -> {
            Thread thread = new Thread(r, "cortex-session-start");
            thread.setDaemon(true);
            return thread;
          });
  private volatile boolean closing;

  Turns(
      SessionStore store,
      Executions executions,
      Costs costs,
      ModelPrices prices,
      Map<String, Backend> backends,
      SessionEnvironment environment,
      Supplier<Budgets> budgets,
      Duration maxTurn,
      Clock clock,
      Followers followers) {
    this.store = store;
    this.inbox = store.inbox();
    this.offers = new Offers(inbox, followers);
    this.executions = executions;
    this.costs = costs;
    this.prices = prices;
    this.backends = backends;
    this.environment = environment;
    this.budgets = budgets;
    this.maxTurn = maxTurn;
    this.clock = clock;
    this.followers = followers;
  }

  /**
   * What a session's turns and deliveries hold while they change it: one for each session that had
   * a message or a turn since the start (sessions are never deleted, so there are never more than
   * in the store; a lock is not dropped while a session lives, since two threads must always get
   * the same one).
   */
  Object lock(String sessionId) {
    return locks.computeIfAbsent(sessionId, k -> new Object());
  }

  /** The turn running in a session, or null. */
  LiveTurn running(String sessionId) {
    return live.get(sessionId);
  }

  /** Starts a turn off the calling thread (unless the server is closing). */
  void startLater(String sessionId) {
    if (!closing) {
      starter.execute(() -> start(sessionId));
    }
  }

  /**
   * Starts a turn with the messages queued in the session's inbox, unless one runs or none waits.
   *
   * @return the new turn's execution id, or null
   */
  String start(String sessionId) {
    if (closing) {
      return null;
    }
    synchronized (lock(sessionId)) {
      if (live.containsKey(sessionId)) {
        return null;
      }
      List<Inbox.Message> queued = inbox.queued(sessionId, Offers.MAX_UNACKNOWLEDGED);
      if (queued.isEmpty()) {
        return null;
      }
      Session session = store.find(sessionId);
      String executionId = executions.start("turn", session);
      List<Long> prompt =
          inbox.offer(sessionId, queued.stream().map(Inbox.Message::seq).toList(), executionId);
      LiveTurn turn = new LiveTurn(executionId, clock.instant().plus(maxTurn), prompt);
      if (refused(session, turn)) {
        return executionId;
      }
      live.put(sessionId, turn);
      store.state(sessionId, Session.State.RUNNING);
      launch(session, turn, queued);
      return executionId;
    }
  }

  /**
   * Offers the queued messages to the session's running turn (when its backend acknowledges them).
   *
   * @return what becomes of the message {@code seq}: completed true once the turn took it, false
   *     once it went back to the queue; null when it was not offered to the turn
   */
  CompletableFuture<Boolean> offer(String sessionId, LiveTurn turn, long seq) {
    synchronized (lock(sessionId)) {
      if (live.get(sessionId) != turn) {
        return null;
      }
      offers.offerQueued(sessionId, turn);
      Inbox.State state = inbox.state(sessionId, seq);
      return state == Inbox.State.QUEUED ? null : turn.outcome(seq);
    }
  }

  /**
   * Ends the turn before it starts when a budget is spent (the refusal says why it ended; its
   * messages go back to the queue, for the first turn the budget allows: a wake is never lost to a
   * refusal); whether it did.
   */
  private boolean refused(Session session, LiveTurn turn) {
    String refusal = budgets.get().refusal(costs, session.project(), clock);
    if (refusal == null) {
      return false;
    }
    String executionId = turn.executionId;
    List<Long> back = inbox.requeue(session.id(), executionId);
    turn.returned(back);
    system(session.id(), executionId, refusal);
    executions.finish(executionId, Execution.Status.FAILED, null, refusal, 0, 0);
    for (long seq : back) {
      followers.publish(session.id(), new SessionService.Update.Refused(seq, executionId, refusal));
    }
    followers.publish(
        session.id(),
        new SessionService.Update.TurnEnded(executionId, Execution.Status.FAILED, refusal));
    return true;
  }

  /** Starts the backend's turn; a backend that cannot start ends the turn failed. */
  private void launch(Session session, LiveTurn turn, List<Inbox.Message> messages) {
    try {
      turn.turn =
          backends
              .get(session.backend())
              .start(request(session, messages), event -> onEvent(session, turn, event));
    } catch (BackendException e) {
      end(session, turn, BackendEvent.End.failed(e.getMessage()));
    } catch (RuntimeException e) {
      // The transcript and the execution get a sentence; the exception goes to the server's log.
      log.warn("starting a turn of {} failed", session.id(), e);
      end(session, turn, BackendEvent.End.failed(COULD_NOT_START));
    }
  }

  private TurnRequest request(Session session, List<Inbox.Message> messages) {
    SessionEnvironment.McpConfig config = environment.mcpConfig(session);
    TurnRequest.Plugins plugins = environment.pluginsOf(session);
    return new TurnRequest(
        session.id(),
        messages.stream()
            .map(m -> new TurnRequest.Message(Long.toString(m.seq()), m.text()))
            .toList(),
        session.backendSessionId(),
        session.model(),
        session.workingDirectory(),
        triggered(environment.environment(session, config), messages),
        config.file(),
        config.strict(),
        session.program(),
        plugins.servers().isEmpty()
            ? plugins
            : plugins.withMcpConfig(environment.pluginConfig(plugins.servers())));
  }

  /**
   * {@code env} with {@code CORTEX_SCHEDULE_TASK_ID} and {@code CORTEX_CALLBACK_SOURCE} for a turn
   * that a schedule's fire or a callback started (its messages' sources say so; the first of each
   * counts).
   */
  static Map<String, String> triggered(Map<String, String> env, List<Inbox.Message> messages) {
    String schedule = null;
    String callback = null;
    for (Inbox.Message m : messages) {
      String source = m.source() == null ? "" : m.source();
      if (schedule == null && source.startsWith(SessionService.SCHEDULE_SOURCE)) {
        schedule = source.substring(SessionService.SCHEDULE_SOURCE.length());
      } else if (callback == null && source.startsWith(SessionService.CALLBACK_SOURCE)) {
        callback = source.substring(SessionService.CALLBACK_SOURCE.length());
      }
    }
    if (schedule == null && callback == null) {
      return env;
    }
    Map<String, String> more = new java.util.LinkedHashMap<>(env);
    if (schedule != null) {
      more.put("CORTEX_SCHEDULE_TASK_ID", schedule);
    }
    if (callback != null) {
      more.put("CORTEX_CALLBACK_SOURCE", callback);
    }
    return more;
  }

  private void onEvent(Session session, LiveTurn turn, BackendEvent event) {
    String id = session.id();
    synchronized (lock(id)) {
      if (live.get(id) != turn) {
        return;
      }
      if (event instanceof BackendEvent.Handshake handshake) {
        offers.handshake(id, turn, handshake.acks());
      } else if (event instanceof BackendEvent.Acked acked) {
        offers.acked(id, turn, acked.id());
      } else if (event instanceof BackendEvent.Started started) {
        if (started.backendSessionId() != null) {
          store.backendSessionId(id, started.backendSessionId());
        }
      } else if (event instanceof BackendEvent.Text text) {
        entry(id, turn, Transcript.Kind.ASSISTANT, Transcript.text(text.text()));
      } else if (event instanceof BackendEvent.ToolUse use) {
        entry(
            id,
            turn,
            Transcript.Kind.TOOL_USE,
            Transcript.toolUse(use.id(), use.name(), use.input()));
      } else if (event instanceof BackendEvent.ToolResult result) {
        entry(
            id,
            turn,
            Transcript.Kind.TOOL_RESULT,
            Transcript.toolResult(result.toolUseId(), result.content(), result.error()));
      } else if (event instanceof BackendEvent.Note note) {
        entry(id, turn, Transcript.Kind.NOTE, Transcript.text(note.text()));
      } else if (event instanceof BackendEvent.Cost cost) {
        cost(session, turn, cost);
      } else if (event instanceof BackendEvent.End end) {
        end(session, turn, end);
      }
    }
  }

  private void entry(String sessionId, LiveTurn turn, Transcript.Kind kind, String body) {
    followers.publish(sessionId, store.append(sessionId, turn.executionId, kind, body));
  }

  private void system(String sessionId, String executionId, String text) {
    followers.publish(
        sessionId,
        store.append(sessionId, executionId, Transcript.Kind.SYSTEM, Transcript.text(text)));
  }

  /**
   * Records what the turn cost: the backend's own figure, else its tokens at the table's prices
   * (cache reads and writes at the table's cache rates).
   */
  private void cost(Session session, LiveTurn turn, BackendEvent.Cost cost) {
    double usd =
        cost.usd() != null
            ? cost.usd()
            : prices
                .usd(
                    cost.model(),
                    new ModelPrices.Tokens(
                        cost.inputTokens(),
                        cost.outputTokens(),
                        cost.cacheReadTokens(),
                        cost.cacheWriteTokens()))
                .map(java.math.BigDecimal::doubleValue)
                .orElse(0.0);
    turn.usd += usd;
    costs.record(
        new Costs.Entry(
            clock.instant(),
            turn.executionId,
            session.id(),
            session.project(),
            "turn",
            cost.model() != null ? cost.model() : session.model(),
            cost.mode() == null ? "api" : cost.mode(),
            cost.inputTokens(),
            cost.outputTokens(),
            cost.cacheReadTokens(),
            cost.cacheWriteTokens(),
            usd));
  }

  private void end(Session session, LiveTurn turn, BackendEvent.End end) {
    String id = session.id();
    if (!live.remove(id, turn)) {
      return;
    }
    List<Long> back = offers.takeBack(id, turn);
    Execution.Status status =
        switch (end.status()) {
          case COMPLETED -> Execution.Status.COMPLETED;
          case FAILED -> Execution.Status.FAILED;
          case STOPPED -> Execution.Status.CANCELLED;
        };
    // A turn's result and error are kept and shown beside its transcript: without its secrets.
    String error = store.redact(end.error());
    if (status == Execution.Status.CANCELLED) {
      error =
          "The turn was stopped" + (turn.stopReason == null ? "." : ": " + turn.stopReason + ".");
      system(id, turn.executionId, error);
      if (turn.timedOut) {
        // Nobody asked for it: a turn that ran out of time failed.
        status = Execution.Status.FAILED;
      }
    } else if (status == Execution.Status.FAILED) {
      system(id, turn.executionId, "The turn failed: " + error);
    }
    executions.finish(turn.executionId, status, store.redact(end.result()), error, turn.usd, 1);
    store.state(id, Session.State.IDLE);
    followers.publish(id, new SessionService.Update.TurnEnded(turn.executionId, status, error));
    if (!back.isEmpty() && !turn.tookAny) {
      // A backend that failed before it took anything would fail again at once on the same
      // messages: they wait for the next message, or the next start of the server.
      log.info(
          "session {}: the turn {} took none of the {} message(s) offered to it; they wait",
          id,
          turn.executionId,
          back.size());
      return;
    }
    // Messages that waited during the turn start the next one, off the backend's thread.
    startLater(id);
  }

  /** Stops every turn that has run longer than max_turn by the clock. */
  void expireOverdue() {
    Instant now = clock.instant();
    String reason = "it ran longer than max_turn (" + maxTurn.toMinutes() + " min)";
    for (LiveTurn turn : List.copyOf(live.values())) {
      turn.expireAt(now, reason);
    }
  }

  /**
   * After a start, before any message or signal is taken: executions of a process that died are
   * marked stale, a turn that was running is marked interrupted, and messages offered to a turn of
   * an earlier server and not acknowledged go back to the head of their queue. A turn this server
   * runs already is left alone (its offers, its session's state).
   */
  void recover() {
    List<String> stale = executions.sweep();
    int back = inbox.requeueOffered();
    if (back > 0) {
      log.info("{} message(s) offered to a turn of an earlier server are offered again", back);
    }
    for (Session session : store.running()) {
      synchronized (lock(session.id())) {
        if (live.containsKey(session.id())) {
          continue;
        }
        store.state(session.id(), Session.State.IDLE);
        system(
            session.id(), null, "The turn was interrupted: the agent server stopped while it ran.");
      }
    }
    if (!stale.isEmpty()) {
      log.info("{} execution(s) of an earlier server marked stale", stale.size());
    }
  }

  /** Starts a turn in every session whose messages wait (after {@link #recover}). */
  void startQueued() {
    inbox.withQueued().forEach(this::startLater);
  }

  /** Stops every running turn and starts no more: the server is shutting down. */
  @Override
  public void close() {
    closing = true;
    starter.shutdown();
    try {
      // A turn starting now is stopped with the others, not left behind.
      if (!starter.awaitTermination(5, TimeUnit.SECONDS)) {
        log.warn("a session's turn was still starting at shutdown");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    // All at once: each stop waits for its program to end and its last output to be handled.
    List<Thread> stopping = new ArrayList<>();
    for (LiveTurn turn : List.copyOf(live.values())) {
      Thread thread =
          new Thread(() -> turn.stop("the agent server is shutting down"), "cortex-turn-stop");
      thread.setDaemon(true);
      thread.start();
      stopping.add(thread);
    }
    try {
      for (Thread thread : stopping) {
        thread.join();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
