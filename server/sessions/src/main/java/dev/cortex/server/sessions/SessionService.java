package dev.cortex.server.sessions;

import dev.cortex.base.prices.ModelPrices;
import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.backend.BackendEvent;
import dev.cortex.server.sessions.backend.BackendException;
import dev.cortex.server.sessions.backend.RunningTurn;
import dev.cortex.server.sessions.backend.TurnRequest;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.Transcript;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * The sessions of the agent server and their turns. One turn runs per session (so per channel) at a
 * time; a message that arrives meanwhile is injected into the running turn where the backend takes
 * it, else it waits in the session's inbox for the next turn, which starts as soon as the running
 * one ends. Every turn is an execution with its costs; its events become the transcript. A backend
 * that crashes ends its turn failed and leaves the session usable; after a restart, a turn that was
 * running is marked interrupted and waiting messages are delivered.
 */
public final class SessionService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionService.class);
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Pattern CHANNEL =
      Pattern.compile("(cli|web|slack|feishu):[A-Za-z0-9._:@/-]{1,128}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final Pattern PROJECT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}");
  private static final Pattern TOOL = Pattern.compile("[A-Za-z0-9_-]{1,128}");

  /** The most listeners one session's live events may have (chats, followers). */
  static final int MAX_FOLLOWERS = 32;

  private final SessionStore store;
  private final Executions executions;
  private final Costs costs;
  private final Map<String, Backend> backends;
  private final SessionEnvironment environment;
  private final Supplier<Budgets> budgets;
  private final AllowlistCheck allowlists;
  private final SessionSettings settings;
  private final ModelPrices prices;
  private final Clock clock;
  private final Map<String, Live> live = new ConcurrentHashMap<>();
  private final Map<String, Object> locks = new ConcurrentHashMap<>();
  private final Map<String, List<Consumer<Update>>> followers = new ConcurrentHashMap<>();
  private final ExecutorService starter =
      Executors.newCachedThreadPool(daemon("cortex-session-start"));
  private final ScheduledExecutorService timers =
      Executors.newSingleThreadScheduledExecutor(daemon("cortex-session-timers"));
  private volatile boolean closing;

  /** A turn that is running, and what it has cost so far. */
  private static final class Live {
    final String executionId;
    volatile RunningTurn turn;
    volatile double usd;
    volatile String stopReason;
    volatile boolean timedOut;
    ScheduledFuture<?> timeout;

    Live(String executionId) {
      this.executionId = executionId;
    }
  }

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
    this.store = Objects.requireNonNull(store, "store");
    this.executions = Objects.requireNonNull(executions, "executions");
    this.costs = Objects.requireNonNull(costs, "costs");
    this.backends = Map.copyOf(backends);
    this.environment = Objects.requireNonNull(environment, "environment");
    this.budgets = Objects.requireNonNull(budgets, "budgets");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.prices = Objects.requireNonNull(prices, "prices");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.allowlists = Objects.requireNonNull(allowlists, "allowlists");
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread thread = new Thread(r, name);
      thread.setDaemon(true);
      return thread;
    };
  }

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
      String mode,
      Session.Composition composition,
      Session.StartedBy startedBy,
      List<String> program,
      Path workingDirectory,
      List<String> toolAllowlist) {}

  public Session create(NewSession request) throws SessionException {
    String backend = request.backend() != null ? request.backend() : settings.backend();
    if (!backends.containsKey(backend)) {
      throw invalid(
          "Unknown backend '"
              + backend
              + "'. Known: "
              + String.join(", ", backends.keySet())
              + ".");
    }
    if (backend.equals("command") && (request.program() == null || request.program().isEmpty())) {
      throw invalid("The command backend needs the program that runs each turn.");
    }
    if (request.project() != null && !PROJECT.matcher(request.project()).matches()) {
      throw invalid(
          "'"
              + request.project()
              + "' is not a project name: 1-128 letters, digits and . _ : / -.");
    }
    List<String> allowlist = request.toolAllowlist();
    if (allowlist != null && allowlist.isEmpty()) {
      // An empty list would reach the MCP server as no allowlist at all: every tool.
      throw invalid("A tool allowlist names at least one tool; leave it out for all of them.");
    }
    for (String tool : allowlist == null ? List.<String>of() : allowlist) {
      if (tool == null || !TOOL.matcher(tool).matches()) {
        throw invalid("'" + tool + "' is not a tool name: 1-128 letters, digits, '_' or '-'.");
      }
    }
    Path dir =
        request.workingDirectory() != null
            ? request.workingDirectory()
            : Path.of(System.getProperty("user.home"));
    if (!dir.isAbsolute() || !Files.isDirectory(dir)) {
      throw invalid("The working directory " + dir + " is not an existing absolute directory.");
    }
    String name = request.name();
    if (name != null && !NAME.matcher(name).matches()) {
      throw invalid("'" + name + "' is not a session name: 1-64 letters, digits, '.', '_' or '-'.");
    }
    if (name != null && store.find(name) != null) {
      throw invalid("A session named '" + name + "' exists already.");
    }
    for (int i = 0; name == null && i < 20; i++) {
      String candidate = "cortex-" + hex(3);
      name = store.find(candidate) == null ? candidate : null;
    }
    String channel = request.channel() != null ? request.channel() : "cli:" + name;
    if (!CHANNEL.matcher(channel).matches()) {
      throw invalid("'" + channel + "' is not a channel: cli:, web:, slack: or feishu: and an id.");
    }
    if (store.channelTaken(channel)) {
      throw invalid("Channel " + channel + " has a session already: one agent runs per channel.");
    }
    Instant now = clock.instant();
    Session session =
        new Session(
            "ses-" + hex(8),
            name,
            channel,
            request.project(),
            backend,
            request.model() != null ? request.model() : settings.model(),
            request.mode() != null ? request.mode() : "default",
            request.composition() != null ? request.composition() : Session.Composition.DIRECT,
            request.startedBy() != null ? request.startedBy() : Session.StartedBy.PERSON,
            request.toolAllowlist(),
            request.program(),
            dir,
            Session.State.IDLE,
            null,
            now,
            now);
    List<String> groups = SessionEnvironment.groups(session);
    if (allowlist != null && !groups.isEmpty()) {
      String refusal = allowlists.refusal(groups, allowlist);
      if (refusal != null) {
        throw invalid("The session's MCP server could not start with this allowlist: " + refusal);
      }
    }
    return store.create(session);
  }

  private static SessionException invalid(String message) {
    return new SessionException(SessionException.INVALID_ARGUMENT, message);
  }

  private static String hex(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return HexFormat.of().formatHex(value);
  }

  public List<Session> list(int limit) {
    return store.list(limit);
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
    Live turn = live.get(sessionId);
    return turn == null ? null : turn.executionId;
  }

  /**
   * What became of a message.
   *
   * @param status {@code started} (a new turn took it), {@code injected} (the running turn took
   *     it), {@code queued} (the next turn will)
   * @param inboxSeq the message's number in the session's inbox
   */
  public record Delivery(String status, String executionId, long inboxSeq) {}

  /** Sends a message to a session's agent. */
  public Delivery send(String idOrName, String text, String source) throws SessionException {
    if (text == null || text.isBlank()) {
      throw invalid("The message is empty.");
    }
    if (text.length() > 1_000_000) {
      throw invalid("The message is longer than 1,000,000 characters.");
    }
    Session session = get(idOrName);
    String refusal = budgets.get().refusal(costs, session.project(), clock);
    if (refusal != null) {
      throw new SessionException(SessionException.BUDGET_EXCEEDED, refusal);
    }
    return deliver(session, text, source, null);
  }

  /**
   * Wakes a session with a message from outside it (a waitpoint's result), once per {@code key}:
   * the same key again, e.g. after a restart, does not send the message twice. Budgets are checked
   * when the turn starts, not here: a wake is never lost to a refusal.
   *
   * @return what became of the message; {@code delivered} when the key was taken before
   */
  public Delivery wake(String sessionId, String text, String source, String key)
      throws SessionException {
    Session session = get(sessionId);
    return deliver(session, text, source, Objects.requireNonNull(key, "key"));
  }

  private Delivery deliver(Session session, String text, String source, String key) {
    synchronized (lock(session.id())) {
      SessionStore.Enqueued enqueued = store.enqueue(session.id(), text, source, key);
      long seq = enqueued.seq();
      if (!enqueued.added()) {
        // Sent before: a turn has it, or the next turn takes it.
        startTurnLater(session.id());
        return new Delivery("delivered", runningExecution(session.id()), seq);
      }
      Live running = live.get(session.id());
      if (running != null) {
        RunningTurn turn = running.turn;
        if (turn != null && turn.injects() && turn.inject(text)) {
          List<SessionStore.Pending> message =
              store.pending(session.id()).stream().filter(p -> p.seq() == seq).toList();
          store
              .deliver(session.id(), message, running.executionId)
              .forEach(e -> publish(session.id(), e));
          publish(session.id(), new Update.Delivered(seq, running.executionId));
          return new Delivery("injected", running.executionId, seq);
        }
        return new Delivery("queued", running.executionId, seq);
      }
      String started = startTurn(session.id());
      return new Delivery(started != null ? "started" : "queued", started, seq);
    }
  }

  private void startTurnLater(String sessionId) {
    if (!closing) {
      starter.execute(() -> startTurn(sessionId));
    }
  }

  /** Stops the turn running in a session; false when none runs. */
  public boolean stop(String idOrName, String reason) throws SessionException {
    Session session = get(idOrName);
    Live running = live.get(session.id());
    if (running == null || running.turn == null) {
      return false;
    }
    running.stopReason = reason;
    running.turn.stop();
    return true;
  }

  public List<Transcript.Entry> transcript(String idOrName, long after, int limit)
      throws SessionException {
    return store.transcript(get(idOrName).id(), after, limit);
  }

  /** A live event of a session: a transcript entry, or the end of a turn. */
  public sealed interface Update {
    record Entry(Transcript.Entry entry) implements Update {}

    record TurnEnded(String executionId, Execution.Status status, String error) implements Update {}

    /** The inbox message {@code inboxSeq} was taken by the turn {@code executionId}. */
    record Delivered(long inboxSeq, String executionId) implements Update {}
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
    List<Consumer<Update>> list =
        followers.computeIfAbsent(sessionId, k -> new CopyOnWriteArrayList<>());
    if (list.size() >= MAX_FOLLOWERS) {
      throw new SessionException(
          SessionException.INVALID_ARGUMENT,
          "Session " + sessionId + " has " + MAX_FOLLOWERS + " followers already.");
    }
    list.add(listener);
    return () -> list.remove(listener);
  }

  private void publish(String sessionId, Transcript.Entry entry) {
    publish(sessionId, new Update.Entry(entry));
  }

  private void publish(String sessionId, Update update) {
    for (Consumer<Update> listener : followers.getOrDefault(sessionId, List.of())) {
      try {
        listener.accept(update);
      } catch (RuntimeException e) {
        log.debug("a follower of {} failed: {}", sessionId, e.toString());
      }
    }
  }

  private Object lock(String sessionId) {
    return locks.computeIfAbsent(sessionId, k -> new Object());
  }

  /**
   * Starts a turn with the messages waiting in the session's inbox, unless one runs or none waits.
   *
   * @return the new turn's execution id, or null
   */
  private String startTurn(String sessionId) {
    if (closing) {
      return null;
    }
    synchronized (lock(sessionId)) {
      if (live.containsKey(sessionId)) {
        return null;
      }
      List<SessionStore.Pending> pending = store.pending(sessionId);
      if (pending.isEmpty()) {
        return null;
      }
      Session session = store.find(sessionId);
      String executionId = executions.start("turn", session);
      store.deliver(sessionId, pending, executionId).forEach(e -> publish(sessionId, e));
      pending.forEach(p -> publish(sessionId, new Update.Delivered(p.seq(), executionId)));
      String refusal = budgets.get().refusal(costs, session.project(), clock);
      if (refusal != null) {
        system(sessionId, executionId, refusal);
        executions.finish(executionId, Execution.Status.FAILED, null, refusal, 0, 0);
        publish(sessionId, new Update.TurnEnded(executionId, Execution.Status.FAILED, refusal));
        return executionId;
      }
      Live turn = new Live(executionId);
      live.put(sessionId, turn);
      store.state(sessionId, Session.State.RUNNING);
      String prompt =
          String.join("\n\n", pending.stream().map(SessionStore.Pending::text).toList());
      try {
        SessionEnvironment.McpConfig config = environment.mcpConfig(session);
        TurnRequest request =
            new TurnRequest(
                session.id(),
                prompt,
                session.backendSessionId(),
                session.model(),
                session.workingDirectory(),
                environment.environment(session, config),
                config.file(),
                config.strict(),
                session.program());
        turn.turn =
            backends.get(session.backend()).start(request, event -> onEvent(session, turn, event));
        Duration max = settings.maxTurn();
        turn.timeout =
            timers.schedule(
                () -> {
                  turn.stopReason = "it ran longer than max_turn (" + max.toMinutes() + " min)";
                  turn.timedOut = true;
                  RunningTurn running = turn.turn;
                  if (running != null) {
                    running.stop();
                  }
                },
                max.toMillis(),
                TimeUnit.MILLISECONDS);
      } catch (BackendException | RuntimeException e) {
        String error =
            e instanceof BackendException ? e.getMessage() : "the backend could not start: " + e;
        if (!(e instanceof BackendException)) {
          log.error("starting a turn of {} failed", sessionId, e);
        }
        end(session, turn, BackendEvent.End.failed(error));
      }
      return executionId;
    }
  }

  private void onEvent(Session session, Live turn, BackendEvent event) {
    String id = session.id();
    synchronized (lock(id)) {
      if (live.get(id) != turn) {
        return;
      }
      if (event instanceof BackendEvent.Started started) {
        if (started.backendSessionId() != null) {
          store.backendSessionId(id, started.backendSessionId());
        }
      } else if (event instanceof BackendEvent.Text text) {
        entry(id, turn, Transcript.Kind.ASSISTANT, Map.of("text", text.text()));
      } else if (event instanceof BackendEvent.ToolUse use) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", use.id());
        body.put("name", use.name());
        body.put("input", parse(use.input()));
        entry(id, turn, Transcript.Kind.TOOL_USE, body);
      } else if (event instanceof BackendEvent.ToolResult result) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tool_use_id", result.toolUseId());
        body.put("content", result.content());
        body.put("is_error", result.error());
        entry(id, turn, Transcript.Kind.TOOL_RESULT, body);
      } else if (event instanceof BackendEvent.Note note) {
        entry(id, turn, Transcript.Kind.NOTE, Map.of("text", note.text()));
      } else if (event instanceof BackendEvent.Cost cost) {
        cost(session, turn, cost);
      } else if (event instanceof BackendEvent.End end) {
        end(session, turn, end);
      }
    }
  }

  private static Object parse(String json) {
    try {
      return JSON.readTree(json == null ? "null" : json);
    } catch (RuntimeException e) {
      return json;
    }
  }

  private void entry(String sessionId, Live turn, Transcript.Kind kind, Object body) {
    publish(
        sessionId, store.append(sessionId, turn.executionId, kind, JSON.writeValueAsString(body)));
  }

  private void system(String sessionId, String executionId, String text) {
    publish(
        sessionId,
        store.append(
            sessionId,
            executionId,
            Transcript.Kind.SYSTEM,
            JSON.writeValueAsString(Map.of("text", text))));
  }

  private void cost(Session session, Live turn, BackendEvent.Cost cost) {
    double usd;
    if (cost.usd() != null) {
      usd = cost.usd();
    } else {
      usd =
          prices
              .usd(cost.model(), cost.inputTokens() + cost.cacheWriteTokens(), cost.outputTokens())
              .map(java.math.BigDecimal::doubleValue)
              .orElse(0.0);
    }
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

  private void end(Session session, Live turn, BackendEvent.End end) {
    String id = session.id();
    if (!live.remove(id, turn)) {
      return;
    }
    if (turn.timeout != null) {
      turn.timeout.cancel(false);
    }
    Execution.Status status =
        switch (end.status()) {
          case COMPLETED -> Execution.Status.COMPLETED;
          case FAILED -> Execution.Status.FAILED;
          case STOPPED -> Execution.Status.CANCELLED;
        };
    String error = end.error();
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
    executions.finish(turn.executionId, status, end.result(), error, turn.usd, 1);
    store.state(id, Session.State.IDLE);
    publish(id, new Update.TurnEnded(turn.executionId, status, error));
    // Messages that waited during the turn start the next one, off the backend's thread.
    startTurnLater(id);
  }

  /**
   * After a start: executions of a process that died are marked stale, a turn that was running is
   * marked interrupted, and messages that were waiting are delivered.
   */
  public void recover() {
    List<String> stale = executions.sweep();
    for (Session session : store.running()) {
      store.state(session.id(), Session.State.IDLE);
      system(
          session.id(), null, "The turn was interrupted: the agent server stopped while it ran.");
    }
    if (!stale.isEmpty()) {
      log.info("{} execution(s) of an earlier server marked stale", stale.size());
    }
    store.withPending().forEach(this::startTurnLater);
  }

  /** Stops every running turn: the server is shutting down. */
  @Override
  public void close() {
    closing = true;
    for (Live turn : List.copyOf(live.values())) {
      turn.stopReason = "the agent server is shutting down";
      RunningTurn running = turn.turn;
      if (running != null) {
        running.stop();
      }
    }
    starter.shutdown();
    timers.shutdownNow();
  }
}
