package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.webhook.SubagentRoles;
import dev.cortex.protocol.webhook.Subagents;
import dev.cortex.server.sessions.AllowlistCheck;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.storage.Database;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The subagents of sessions: an {@code agent} call plans its items (role, backend, model, the
 * allowlist that leaves delegation out) with nothing written, checks the parent's budget, then
 * makes each item a child session of the parent ({@code started_by} subagent, the parent's project
 * and working directory) and runs one turn in it with the item's prompt. The parent's transcript
 * gets a note as each starts and ends; the child's transcript and costs are the child session's,
 * under the parent's project. A foreground call still running after the hand-off limit answers as a
 * background one does; the results of a background call come to the parent as one message, once
 * (its inbox key is the call's id), when the last of its subagents ends.
 *
 * <p>The work is shared out: {@link SubagentPlanner} plans the items, {@link SubagentTurns} runs
 * each subagent's turn, {@link SubagentResults} delivers a background call's results.
 */
final class SubagentService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SubagentService.class);

  /** When a foreground call moves to the background (seed 001). */
  static final Duration HANDOFF = Duration.ofMinutes(25);

  /** The test setting that shortens the hand-off: seconds (1 to 86400). */
  static final String HANDOFF_SETTING = "CORTEX_TEST_SUBAGENT_HANDOFF_SECONDS";

  /** The setting of how many items of a {@code parallel} call run at once (1 to 8). */
  static final String PARALLEL_SETTING = "CORTEX_SUBAGENT_MAX_PARALLEL";

  static final int DEFAULT_PARALLEL = 4;

  /** The most calls under way at once, over every session; one more is refused until one ends. */
  static final int MAX_CALLS = 32;

  /** How long a finished subagent's record is kept once its result was delivered: 30 days. */
  static final Duration KEEP = Duration.ofDays(30);

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Supplier<Database> database;
  private final SessionService sessions;
  private final Costs costs;
  private final Supplier<Budgets> budgets;
  private final SubagentPlanner planner;
  private final SubagentTurns turns;
  private final SubagentResults results;
  private final Duration handoff;
  private final int maxParallel;
  private final Clock clock;
  private final Map<String, Call> calls = new ConcurrentHashMap<>();
  private final ExecutorService pool =
      Executors.newCachedThreadPool(
          r -> {
            Thread thread = new Thread(r, "cortex-subagent");
            thread.setDaemon(true);
            return thread;
          });
  private volatile boolean closing;
  private SessionService.Subscription following;

  /** How often a foreground call's waiting checks on its subagents. */
  private static final Duration POLL = Duration.ofMillis(500);

  SubagentService(
      Supplier<Database> database,
      SessionService sessions,
      Executions executions,
      Costs costs,
      Supplier<Budgets> budgets,
      AllowlistCheck allowlists,
      Supplier<SubagentRoles> roles,
      Map<String, String> env,
      Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.sessions = Objects.requireNonNull(sessions, "sessions");
    this.costs = Objects.requireNonNull(costs, "costs");
    this.budgets = Objects.requireNonNull(budgets, "budgets");
    this.planner =
        new SubagentPlanner(
            Objects.requireNonNull(roles, "roles"),
            Objects.requireNonNull(allowlists, "allowlists"),
            sessions::unfit);
    this.handoff = seconds(env, HANDOFF_SETTING, 1, 86_400, HANDOFF);
    this.maxParallel =
        (int)
            seconds(env, PARALLEL_SETTING, 1, 8, Duration.ofSeconds(DEFAULT_PARALLEL)).toSeconds();
    this.clock = Objects.requireNonNull(clock, "clock");
    this.turns =
        new SubagentTurns(
            database,
            sessions,
            Objects.requireNonNull(executions, "executions"),
            clock,
            () -> closing);
    this.results = new SubagentResults(database, sessions, clock);
  }

  private static Duration seconds(
      Map<String, String> env, String name, long min, long max, Duration otherwise) {
    String value = env.get(name);
    if (value == null || value.isBlank()) {
      return otherwise;
    }
    try {
      long n = Long.parseLong(value.strip());
      if (n >= min && n <= max) {
        return Duration.ofSeconds(n);
      }
    } catch (NumberFormatException e) {
      // falls through
    }
    throw new dev.cortex.base.StartupException(
        name + " must be a whole number from " + min + " to " + max + ", got '" + value + "'.");
  }

  /** A call under way: its rows' ids in item order, and whether its caller still waits. */
  private static final class Call {
    final String id;
    final String parentSessionId;

    /**
     * The parent's turn that made the call (null when none ran): its end ends a foreground call.
     */
    final String parentExecution;

    final Subagents.Mode mode;
    final List<String> agents;

    /** The text each agent's turn is sent, in order. */
    final List<String> prompts;

    boolean done;
    boolean background;

    Call(
        String id,
        String parentSessionId,
        String parentExecution,
        Subagents.Mode mode,
        List<String> agents,
        List<String> prompts,
        boolean background) {
      this.id = id;
      this.parentSessionId = parentSessionId;
      this.parentExecution = parentExecution;
      this.mode = mode;
      this.agents = List.copyOf(agents);
      this.prompts = List.copyOf(prompts);
      this.background = background;
    }
  }

  /** Runs an {@code agent} call: its outcomes, or (background, or past the hand-off) its ids. */
  Subagents.Ran run(Subagents.Run run) {
    return run(run, progress -> {}, () -> true);
  }

  /**
   * Runs an {@code agent} call, telling {@code progress} (in the calling thread) how a foreground
   * call gets on: as it starts, as each subagent ends, and every {@link Subagents#PROGRESS_EVERY}
   * between. A refusal is thrown before the first progress. When {@code present} turns false (its
   * caller went away) before the call ended, its running subagents are stopped.
   */
  Subagents.Ran run(
      Subagents.Run run, Consumer<Subagents.Progress> progress, BooleanSupplier present) {
    Session parent = parent(run.sessionId());
    List<SubagentPlanner.Planned> plan = new ArrayList<>();
    for (Subagents.Item item : run.items()) {
      plan.add(planner.plan(parent, run, item));
    }
    if (calls.size() >= MAX_CALLS) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "No subagent was started: "
              + MAX_CALLS
              + " subagent calls are under way on this server; retry when one has ended.");
    }
    String refusal = budgets.get().refusal(costs, parent.project(), clock);
    if (refusal != null) {
      throw new CodedException(
          Subagents.Codes.BUDGET_EXCEEDED, "No subagent was started: " + refusal);
    }
    Call call = start(parent, run, plan);
    CompletableFuture<Void> work = CompletableFuture.runAsync(() -> execute(call), pool);
    if (run.background()) {
      // Marked at the start (its rows too): its results are delivered however soon it ends.
      return ran(call, true);
    }
    long until = System.nanoTime() + handoff.toNanos();
    int told = -1;
    long toldAt = 0;
    while (true) {
      int done = ended(call);
      long now = System.nanoTime();
      if (done != told || now - toldAt >= Subagents.PROGRESS_EVERY.toNanos()) {
        progress.accept(progress(call, done));
        told = done;
        toldAt = now;
      }
      if (!present.getAsBoolean()) {
        abandon(call, "stopped as its caller went away");
        work.join();
        return ran(call, false);
      }
      long left = until - now;
      try {
        if (left <= 0) {
          throw new TimeoutException();
        }
        work.get(Math.min(left, POLL.toNanos()), TimeUnit.NANOSECONDS);
        break;
      } catch (TimeoutException e) {
        if (left > 0) {
          continue;
        }
        synchronized (call) {
          if (!call.done) {
            background(call);
            return ran(call, true);
          }
        }
        break;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        background(call);
        return ran(call, true);
      } catch (ExecutionException e) {
        log.warn("subagent call {} broke", call.id, e.getCause());
        break;
      }
    }
    progress.accept(progress(call, call.agents.size()));
    return ran(call, false);
  }

  /** How many of the call's subagents have ended. */
  private int ended(Call call) {
    return (int)
        database.get().read(c -> SubagentStore.ofCall(c, call.id)).stream()
            .filter(row -> !row.status().equals(SubagentStore.RUNNING))
            .count();
  }

  private static Subagents.Progress progress(Call call, int done) {
    int total = call.agents.size();
    return new Subagents.Progress(
        done,
        total,
        total == 1
            ? (done == 0 ? "The subagent is running." : "The subagent has ended.")
            : done + " of " + total + " subagents have ended.");
  }

  /**
   * Stops the running subagents of a foreground call whose caller is gone ({@code reason} says
   * how): a call handed to the background, or ended, is left as it is.
   */
  void abandon(String parentSessionId, String parentExecution, String reason) {
    for (Call call : List.copyOf(calls.values())) {
      if (call.parentSessionId.equals(parentSessionId)
          && Objects.equals(call.parentExecution, parentExecution)) {
        abandon(call, reason);
      }
    }
  }

  private void abandon(Call call, String reason) {
    synchronized (call) {
      if (call.done || call.background) {
        return;
      }
    }
    for (String agent : call.agents) {
      SubagentStore.Row row = row(agent);
      if (row != null && row.status().equals(SubagentStore.RUNNING)) {
        stop(row, reason);
      }
    }
  }

  /**
   * Starts hearing the ends of parents' turns: a foreground call of a turn that ended (stopped,
   * failed, past its time) has no one to answer, and its subagents are stopped with it.
   */
  void listen() {
    following =
        sessions.followAll(
            (sessionId, update) -> {
              if (update instanceof SessionService.Update.TurnEnded) {
                String executionId = ((SessionService.Update.TurnEnded) update).executionId();
                if (!calls.isEmpty()) {
                  pool.execute(
                      () -> abandon(sessionId, executionId, "stopped as its parent's turn ended"));
                }
              }
            });
  }

  private Session parent(String sessionId) {
    Session parent;
    try {
      parent = sessions.get(sessionId);
    } catch (SessionException e) {
      throw new CodedException(
          Subagents.Codes.NO_SESSION, "No session '" + sessionId + "' on this agent server.");
    }
    if (parent.startedBy() == Session.StartedBy.SUBAGENT) {
      throw new CodedException(
          Subagents.Codes.NO_DELEGATION,
          "A subagent cannot start subagents of its own: do the work yourself.");
    }
    return parent;
  }

  /** Makes the child sessions and records the subagents, all before any runs. */
  private Call start(Session parent, Subagents.Run run, List<SubagentPlanner.Planned> plan) {
    String callId = "call-" + hex(6);
    String parentExecution = sessions.runningExecution(parent.id());
    List<SubagentStore.Row> rows = new ArrayList<>();
    for (int i = 0; i < plan.size(); i++) {
      SubagentPlanner.Planned p = plan.get(i);
      Session child;
      try {
        child =
            sessions.create(
                new SessionService.NewSession(
                    null,
                    null,
                    parent.project(),
                    p.backend(),
                    p.model(),
                    null,
                    null,
                    Session.Composition.DIRECT,
                    Session.StartedBy.SUBAGENT,
                    p.backend().equals("command") ? parent.program() : null,
                    parent.workingDirectory(),
                    p.allowlist()));
      } catch (SessionException e) {
        throw new CodedException(
            e.code().equals(SessionException.BUDGET_EXCEEDED)
                ? Subagents.Codes.BUDGET_EXCEEDED
                : ErrorCodes.INVALID_ARGUMENT,
            "Subagent " + (i + 1) + " cannot start: " + e.getMessage());
      }
      rows.add(
          new SubagentStore.Row(
              "sa-" + hex(6),
              callId,
              i,
              run.mode().wire(),
              parent.id(),
              parentExecution,
              child.id(),
              p.item().description(),
              p.role().name(),
              child.backend(),
              child.model(),
              SubagentStore.RUNNING,
              run.background(),
              null,
              null,
              0,
              clock.instant(),
              null,
              null));
    }
    database
        .get()
        .write(
            c -> {
              for (SubagentStore.Row row : rows) {
                SubagentStore.insert(c, row);
              }
              return null;
            });
    Call call =
        new Call(
            callId,
            parent.id(),
            parentExecution,
            run.mode(),
            rows.stream().map(SubagentStore.Row::id).toList(),
            plan.stream().map(SubagentPlanner.Planned::prompt).toList(),
            run.background());
    calls.put(callId, call);
    return call;
  }

  /** Runs a call's items as its mode says, then delivers its results if its caller left. */
  private void execute(Call call) {
    List<String> texts = call.prompts;
    try {
      switch (call.mode) {
        case CHAIN -> chain(call, texts);
        case PARALLEL -> parallel(call, texts);
        case SINGLE -> runOne(call.agents.get(0), texts.get(0));
      }
    } catch (RuntimeException e) {
      log.warn("subagent call {} broke", call.id, e);
      for (String agent : call.agents) {
        finish(agent, SubagentStore.FAILED, null, "the agent server failed to run it", 0);
      }
    } finally {
      boolean deliver;
      synchronized (call) {
        call.done = true;
        deliver = call.background;
      }
      calls.remove(call.id);
      if (deliver) {
        deliver(call.id);
      }
    }
  }

  private void chain(Call call, List<String> texts) {
    String previous = "";
    for (int i = 0; i < call.agents.size(); i++) {
      String agent = call.agents.get(i);
      if (i > 0) {
        SubagentStore.Row before = row(call.agents.get(i - 1));
        if (!before.status().equals(SubagentStore.COMPLETED)) {
          for (String rest : call.agents.subList(i, call.agents.size())) {
            finish(
                rest,
                SubagentStore.SKIPPED,
                null,
                "the chain's item " + i + " did not complete (" + before.status() + ")",
                0);
          }
          return;
        }
        previous = before.output() == null ? "" : before.output();
      }
      runOne(agent, texts.get(i).replace(Subagents.PREVIOUS, previous));
    }
  }

  private void parallel(Call call, List<String> texts) {
    Semaphore slots = new Semaphore(maxParallel);
    List<CompletableFuture<Void>> runs = new ArrayList<>();
    for (int i = 0; i < call.agents.size(); i++) {
      String agent = call.agents.get(i);
      String text = texts.get(i);
      runs.add(
          CompletableFuture.runAsync(
              () -> {
                slots.acquireUninterruptibly();
                try {
                  runOne(agent, text);
                } catch (RuntimeException e) {
                  // One broken item does not lose the others' results.
                  log.warn("subagent {} broke", agent, e);
                  finish(agent, SubagentStore.FAILED, null, "the agent server failed to run it", 0);
                } finally {
                  slots.release();
                }
              },
              pool));
    }
    runs.forEach(CompletableFuture::join);
  }

  private void runOne(String agentId, String prompt) {
    turns.run(agentId, prompt);
  }

  private SubagentStore.Row row(String agentId) {
    return turns.row(agentId);
  }

  private boolean finish(String agentId, String status, String output, String error, double usd) {
    return turns.finish(agentId, status, output, error, usd);
  }

  private void deliver(String callId) {
    results.deliver(callId);
  }

  private void background(Call call) {
    synchronized (call) {
      call.background = true;
    }
    database
        .get()
        .write(
            c -> {
              SubagentStore.background(c, call.id);
              return null;
            });
  }

  private Subagents.Ran ran(Call call, boolean background) {
    List<Subagents.Outcome> outcomes =
        database.get().read(c -> SubagentStore.ofCall(c, call.id)).stream()
            .map(SubagentStore.Row::outcome)
            .toList();
    double usd = outcomes.stream().mapToDouble(Subagents.Outcome::costUsd).sum();
    return new Subagents.Ran(call.mode.wire(), background, outcomes, usd);
  }

  /** Stops a running subagent of the session and discards what it produced. */
  Subagents.Stopped stop(Subagents.Stop stop) {
    SubagentStore.Row row = row(stop.agentId());
    if (row == null || !row.parentSessionId().equals(stop.sessionId())) {
      throw new CodedException(
          Subagents.Codes.NOT_FOUND,
          "No subagent '" + stop.agentId() + "' of this session: use the agent_id agent answered.");
    }
    return stop(row, "stopped by its parent (agent_stop)");
  }

  Subagents.Stopped stop(SubagentStore.Row row, String reason) {
    if (!finish(row.id(), SubagentStore.STOPPED, null, "it was " + reason, row.costUsd())) {
      SubagentStore.Row now = row(row.id());
      return new Subagents.Stopped(
          row.id(), false, now.status(), "It had ended already (" + now.status() + ").");
    }
    try {
      sessions.stop(row.childSessionId(), reason);
    } catch (SessionException e) {
      log.debug("the child session of {} is gone", row.id());
    }
    return new Subagents.Stopped(
        row.id(), true, SubagentStore.STOPPED, "Stopped; what it produced is discarded.");
  }

  /**
   * After a start: subagents that ran when the server stopped are marked interrupted (nothing runs
   * twice), and the results of background calls that ended are delivered.
   */
  void recover() {
    List<SubagentStore.Row> running = database.get().read(SubagentStore::running);
    for (SubagentStore.Row row : running) {
      // Its caller's request ended with the server: the parent hears how it ended as a message.
      database
          .get()
          .write(
              c -> {
                SubagentStore.background(c, row.callId());
                return null;
              });
      finish(
          row.id(),
          SubagentStore.INTERRUPTED,
          null,
          "the agent server stopped while it ran",
          row.costUsd());
    }
    if (!running.isEmpty()) {
      log.info("{} subagent(s) of an earlier server marked interrupted", running.size());
    }
    sweep();
  }

  /** Delivers the results of ended background calls not delivered yet (housekeeping). */
  void sweep() {
    for (String callId : database.get().read(SubagentStore::undeliveredCalls)) {
      if (!calls.containsKey(callId)) {
        deliver(callId);
      }
    }
    Instant before = clock.instant().minus(KEEP);
    database.get().write(c -> SubagentStore.prune(c, before));
  }

  /** The subagents of a parent session, oldest first; every parent's, newest first. */
  Subagents.Listed list(Subagents.Listing listing) {
    String parent = null;
    if (listing.session() != null) {
      try {
        parent = sessions.get(listing.session()).id();
      } catch (SessionException e) {
        throw new CodedException(Subagents.Codes.NOT_FOUND, e.getMessage());
      }
    }
    String of = parent;
    List<Subagents.View> views =
        database.get().read(c -> SubagentStore.list(c, of, listing.limitOrDefault())).stream()
            .map(SubagentStore.Row::view)
            .toList();
    return new Subagents.Listed(views, views.stream().mapToDouble(Subagents.View::costUsd).sum());
  }

  /** A subagent and the first entries of its child session's transcript. */
  Subagents.Shown show(Subagents.Ref ref) {
    SubagentStore.Row row = known(ref.agentId());
    List<dev.cortex.protocol.session.Sessions.Entry> entries;
    try {
      entries =
          sessions.transcript(row.childSessionId(), 0, Subagents.SHOWN_ENTRIES).stream()
              .map(SessionRoutes::entry)
              .toList();
    } catch (SessionException e) {
      entries = List.of();
    }
    return new Subagents.Shown(row.view(), entries);
  }

  /** Stops a subagent for a person (the session API, {@code cortex agents stop}). */
  Subagents.Stopped stopFromApi(Subagents.Ref ref) {
    return stop(known(ref.agentId()), "stopped by a person");
  }

  private SubagentStore.Row known(String agentId) {
    SubagentStore.Row row = row(agentId);
    if (row == null) {
      throw new CodedException(Subagents.Codes.NOT_FOUND, "No subagent '" + agentId + "'.");
    }
    return row;
  }

  private static String hex(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return HexFormat.of().formatHex(value);
  }

  /**
   * The server is stopping: no subagent starts any more, and the calls under way are moved to the
   * background, so that their parents hear how they ended (interrupted) as a message. Their turns
   * are stopped with the sessions'.
   */
  @Override
  public void close() {
    closing = true;
    if (following != null) {
      following.close();
    }
    for (Call call : List.copyOf(calls.values())) {
      background(call);
    }
    pool.shutdown();
  }
}
