package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.protocol.webhook.Team;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.SessionEnvironment;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.TeamSettings;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.Transcript;
import dev.cortex.storage.Database;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Team mode: the workers of main sessions. A worker is a persistent session ({@code started_by}
 * worker) of the main session's project and working directory, on its backend and model unless the
 * spawn names others. The main session talks to it with {@code worker_send}; each of the worker's
 * turns, as it ends, is reported to the main session as a new message, once (its inbox key names
 * the worker and the turn), except a routine turn ({@code mark_routine}) that completed: that one
 * becomes a note in the main session's transcript and an unread update in the roster, and does not
 * wake it. A worker's questions and plans are put to its main session as messages too, and {@code
 * worker_answer} answers them.
 */
final class TeamService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TeamService.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** The most of a question's or plan's text put into the main session's message. */
  private static final int MAX_RELAYED = 20_000;

  private final Supplier<Database> database;
  private final SessionService sessions;
  private final Executions executions;
  private final Costs costs;
  private final Supplier<Budgets> budgets;
  private final InteractionService interactions;
  private final TeamSettings team;
  private final Clock clock;
  private final ExecutorService reports =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread thread = new Thread(r, "cortex-team");
            thread.setDaemon(true);
            return thread;
          });
  private SessionService.Subscription following;

  TeamService(
      Supplier<Database> database,
      SessionService sessions,
      Executions executions,
      Costs costs,
      Supplier<Budgets> budgets,
      InteractionService interactions,
      TeamSettings team,
      Clock clock) {
    this.database = Objects.requireNonNull(database, "database");
    this.sessions = Objects.requireNonNull(sessions, "sessions");
    this.executions = Objects.requireNonNull(executions, "executions");
    this.costs = Objects.requireNonNull(costs, "costs");
    this.budgets = Objects.requireNonNull(budgets, "budgets");
    this.interactions = Objects.requireNonNull(interactions, "interactions");
    this.team = Objects.requireNonNull(team, "team");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Starts hearing the ends of workers' turns and their questions and plans. */
  void start() {
    following =
        sessions.followAll(
            (sessionId, update) -> {
              if (update instanceof SessionService.Update.TurnEnded) {
                String executionId = ((SessionService.Update.TurnEnded) update).executionId();
                reports.execute(() -> turnEnded(sessionId, executionId));
              }
            });
    interactions.onChange(
        change -> {
          if (change.state().equals(Interactions.OPEN)) {
            reports.execute(() -> relay(change.session(), change.id()));
          }
        });
  }

  // ---- the main session's tools

  Team.Spawned spawn(Team.Spawn spawn) {
    Session main = main(spawn.sessionId());
    String backend = spawn.backend() != null ? spawn.backend() : main.backend();
    String model =
        spawn.model() != null
            ? spawn.model()
            : backend.equals(main.backend()) ? main.model() : null;
    String unfit = sessions.unfit(backend, model);
    if (unfit != null) {
      throw new CodedException(ErrorCodes.INVALID_ARGUMENT, "No worker was started: " + unfit);
    }
    Integer count = database.get().read(c -> TeamStore.count(c, main.id()));
    if (count >= Team.MAX_WORKERS) {
      throw new CodedException(
          Team.Codes.TOO_MANY_WORKERS,
          "This session has "
              + Team.MAX_WORKERS
              + " workers already: give one of them the work (worker_send).");
    }
    if (database.get().read(c -> TeamStore.named(c, main.id(), spawn.name())) != null) {
      throw new CodedException(
          Team.Codes.NAME_TAKEN,
          "This session has a worker named '"
              + spawn.name()
              + "' already: send it the work (worker_send), or choose another name.");
    }
    String refusal = budgets.get().refusal(costs, main.project(), clock);
    if (refusal != null) {
      throw new CodedException(Team.Codes.BUDGET_EXCEEDED, "No worker was started: " + refusal);
    }
    Session worker;
    try {
      worker =
          sessions.create(
              new SessionService.NewSession(
                  null,
                  null,
                  main.project(),
                  backend,
                  model,
                  main.thinking(),
                  null,
                  Session.Composition.DIRECT,
                  Session.StartedBy.WORKER,
                  backend.equals("command") ? main.program() : null,
                  main.workingDirectory(),
                  null));
    } catch (SessionException e) {
      throw new CodedException(
          e.code().equals(SessionException.BUDGET_EXCEEDED)
              ? Team.Codes.BUDGET_EXCEEDED
              : ErrorCodes.INVALID_ARGUMENT,
          "No worker was started: " + e.getMessage());
    }
    TeamStore.Row row =
        new TeamStore.Row(
            "wk-" + hex(6),
            main.id(),
            spawn.name(),
            worker.id(),
            worker.backend(),
            worker.model(),
            null,
            null,
            null,
            null,
            null,
            0,
            clock.instant());
    try {
      database
          .get()
          .write(
              c -> {
                TeamStore.insert(c, row);
                return null;
              });
    } catch (RuntimeException e) {
      // Two spawns of one name at once: the table's uniqueness kept one.
      throw new CodedException(
          Team.Codes.NAME_TAKEN, "This session has a worker named '" + spawn.name() + "' already.");
    }
    note(
        main.id(),
        "Worker " + spawn.name() + " (" + row.id() + ") started in session " + worker.id() + ".");
    String status;
    try {
      status = sessions.send(worker.id(), spawn.prompt(), "main session").status();
    } catch (SessionException e) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "Worker "
              + spawn.name()
              + " was made but its first task was not sent: "
              + e.getMessage());
    }
    return new Team.Spawned(
        view(row, false),
        status,
        "Worker "
            + spawn.name()
            + " has its first task; its report comes to this session as a message.");
  }

  Team.Sent send(Team.Send send) {
    Session main = main(send.sessionId());
    TeamStore.Row row = worker(main.id(), send.worker());
    return sendTo(row, send.message(), "main session");
  }

  private Team.Sent sendTo(TeamStore.Row row, String message, String source) {
    try {
      SessionService.Delivery delivery = sessions.send(row.sessionId(), message, source);
      return new Team.Sent(
          row.name(),
          delivery.status(),
          delivery.status().equals("started")
              ? "Worker " + row.name() + " started a turn with it."
              : "Worker " + row.name() + " has it (" + delivery.status() + ").");
    } catch (SessionException e) {
      throw new CodedException(
          e.code().equals(SessionException.BUDGET_EXCEEDED)
              ? Team.Codes.BUDGET_EXCEEDED
              : ErrorCodes.UNAVAILABLE,
          "Worker " + row.name() + " did not get it: " + e.getMessage());
    }
  }

  Team.Listed list(Team.Roster roster) {
    Session main = main(roster.sessionId());
    if (roster.worker() == null) {
      return new Team.Listed(
          database.get().read(c -> TeamStore.of(c, main.id())).stream()
              .map(r -> view(r, false))
              .toList());
    }
    TeamStore.Row row = worker(main.id(), roster.worker());
    database
        .get()
        .write(
            c -> {
              TeamStore.read(c, row.id());
              return null;
            });
    return new Team.Listed(List.of(view(row, true)));
  }

  Team.Stopped stop(Team.Stop stop) {
    Session main = main(stop.sessionId());
    return stopOf(worker(main.id(), stop.worker()), "stopped by its main session");
  }

  private Team.Stopped stopOf(TeamStore.Row row, String reason) {
    boolean stopped;
    try {
      stopped = sessions.stop(row.sessionId(), reason);
    } catch (SessionException e) {
      throw new CodedException(Team.Codes.NOT_FOUND, "Worker " + row.name() + " is gone.");
    }
    return new Team.Stopped(
        row.name(),
        stopped,
        stopped
            ? "Worker " + row.name() + "'s turn is stopping; its end is reported as usual."
            : "Worker " + row.name() + " had no turn running.");
  }

  Team.Answered answer(Team.Answer answer) {
    Session main = main(answer.sessionId());
    Interactions.View request = request(answer.requestId());
    TeamStore.Row row =
        request == null
            ? null
            : database.get().read(c -> TeamStore.ofSession(c, request.sessionId()));
    if (row == null || !row.mainSessionId().equals(main.id())) {
      throw new CodedException(
          Team.Codes.NOT_FOUND,
          "None of this session's workers has a request " + answer.requestId() + ".");
    }
    if (request.kind().equals(Interactions.PLAN) != (answer.approved() != null)) {
      throw new CodedException(
          ErrorCodes.INVALID_ARGUMENT,
          request.kind().equals(Interactions.PLAN)
              ? "Request "
                  + answer.requestId()
                  + " is a plan: answer it with approved (and feedback)."
              : "Request " + answer.requestId() + " is a question: answer it with answers.");
    }
    Interactions.View ended =
        interactions.answer(
            new Interactions.Answer(
                answer.requestId(),
                answer.answers(),
                answer.approved(),
                answer.feedback(),
                "main session " + main.name(),
                "team"));
    return new Team.Answered(ended.id(), row.name(), ended.kind(), ended.state());
  }

  private Interactions.View request(String id) {
    try {
      return interactions.show(id);
    } catch (CodedException e) {
      return null;
    }
  }

  // ---- the worker's tool

  Team.Marked routine(Team.Routine routine) {
    TeamStore.Row row = database.get().read(c -> TeamStore.ofSession(c, routine.sessionId()));
    if (row == null) {
      throw new CodedException(
          Team.Codes.NOT_A_WORKER,
          "mark_routine is for a team's workers, and this session is not one.");
    }
    String execution = sessions.runningExecution(row.sessionId());
    if (execution == null) {
      throw new CodedException(
          ErrorCodes.INVALID_ARGUMENT, "No turn of this worker is running to mark routine.");
    }
    database
        .get()
        .write(
            c -> {
              TeamStore.routine(c, row.id(), execution);
              return null;
            });
    return new Team.Marked(
        execution,
        "This turn is routine: its final reply is kept for the main session without waking it"
            + " (a failed or stopped turn is still reported).");
  }

  // ---- people (the session API, cortex workers)

  Team.Listed listForPerson(Team.Listing listing) {
    String main = listing.session() == null ? null : person(listing.session()).id();
    return new Team.Listed(
        database.get().read(c -> TeamStore.of(c, main)).stream().map(r -> view(r, false)).toList());
  }

  Team.Sent sendFromPerson(Team.Ref ref) {
    if (ref.message() == null) {
      throw new CodedException(ErrorCodes.INVALID_ARGUMENT, Team.Ref.USAGE);
    }
    return sendTo(known(ref), ref.message(), "person");
  }

  Team.Stopped stopFromPerson(Team.Ref ref) {
    return stopOf(known(ref), "stopped by a person");
  }

  private TeamStore.Row known(Team.Ref ref) {
    TeamStore.Row row;
    if (Team.WORKER_ID.matcher(ref.worker()).matches()) {
      row = database.get().read(c -> TeamStore.get(c, ref.worker()));
    } else {
      String main = person(ref.session()).id();
      row = database.get().read(c -> TeamStore.named(c, main, ref.worker()));
    }
    if (row == null) {
      throw new CodedException(Team.Codes.NOT_FOUND, "No worker '" + ref.worker() + "'.");
    }
    return row;
  }

  private Session person(String idOrName) {
    try {
      return sessions.get(idOrName);
    } catch (SessionException e) {
      throw new CodedException(Team.Codes.NOT_FOUND, e.getMessage());
    }
  }

  // ---- reports

  /** A worker's turn ended: its report goes to the main session, once. */
  private void turnEnded(String sessionId, String executionId) {
    TeamStore.Row row;
    try {
      row = database.get().read(c -> TeamStore.ofSession(c, sessionId));
    } catch (RuntimeException e) {
      log.warn("the end of a turn of {} was not checked for a team: {}", sessionId, e.toString());
      return;
    }
    if (row != null && !executionId.equals(row.reportedExecution())) {
      report(row, executions.get(executionId));
    }
  }

  private void report(TeamStore.Row row, Execution execution) {
    if (execution == null || execution.status() == Execution.Status.RUNNING) {
      return;
    }
    String status = status(execution);
    boolean routine =
        execution.id().equals(row.routineExecution())
            && execution.status() == Execution.Status.COMPLETED;
    String report =
        execution.status() == Execution.Status.COMPLETED
            ? (execution.output() == null ? "" : execution.output())
            : (execution.error() == null ? status : execution.error());
    if (routine) {
      boolean fresh =
          database
              .get()
              .write(
                  c ->
                      TeamStore.reported(
                          c, row.id(), execution.id(), status, report, true, clock.instant()));
      if (fresh) {
        note(row.mainSessionId(), "Worker " + row.name() + " (routine update): " + cut(report));
      }
      return;
    }
    String text =
        "Worker "
            + row.name()
            + " ("
            + row.id()
            + ") "
            + (status.equals("completed") ? "reports" : "ended its turn " + status)
            + ":\n\n"
            + report;
    try {
      sessions.wake(
          row.mainSessionId(), text, "worker", "worker:" + row.id() + ":" + execution.id());
    } catch (SessionException e) {
      log.info("the main session of worker {} is gone; its report is dropped", row.id());
    }
    database
        .get()
        .write(
            c ->
                TeamStore.reported(
                    c, row.id(), execution.id(), status, report, false, clock.instant()));
  }

  private static String status(Execution execution) {
    switch (execution.status()) {
      case COMPLETED:
        return "completed";
      case CANCELLED:
        return "stopped";
      case STALE:
        return "interrupted";
      default:
        return execution.status().wire();
    }
  }

  /** A worker's question or plan opened: the main session hears it, once. */
  private void relay(String sessionId, String requestId) {
    TeamStore.Row row = database.get().read(c -> TeamStore.ofSession(c, sessionId));
    if (row == null) {
      return;
    }
    Interactions.View request = interactions.show(requestId);
    StringBuilder text = new StringBuilder("Worker ").append(row.name());
    if (request.kind().equals(Interactions.PLAN)) {
      text.append(" asks you to approve its plan (request ").append(request.id()).append(").\n");
      if (request.plan().summary() != null) {
        text.append("\nSummary: ").append(request.plan().summary()).append('\n');
      }
      text.append('\n')
          .append(cut(request.plan().content(), MAX_RELAYED))
          .append("\n\nAnswer with worker_answer: request_id ")
          .append(request.id())
          .append(", approved true, or approved false with feedback.");
    } else {
      text.append(" asks (request ").append(request.id()).append("):\n");
      int n = 0;
      for (Interactions.Question q : request.questions()) {
        text.append("\nQ").append(++n).append(": ").append(cut(q.question(), MAX_RELAYED));
        if (q.options() != null) {
          for (Interactions.Option o : q.options()) {
            text.append("\n  - ").append(o.label());
            if (o.description() != null) {
              text.append(": ").append(o.description());
            }
          }
        }
      }
      text.append("\n\nAnswer with worker_answer: request_id ")
          .append(request.id())
          .append(", answers (one per question: selected labels and/or text).");
    }
    try {
      sessions.wake(row.mainSessionId(), text.toString(), "worker", "worker-ask:" + request.id());
    } catch (SessionException e) {
      log.info("the main session of worker {} is gone; request {} waits", row.id(), requestId);
    }
  }

  /**
   * After a start: each worker's newest turn that ended and was not reported (the server stopped
   * first) is reported now; sessions mark the turns that ran when it stopped as interrupted.
   */
  void recover() {
    for (TeamStore.Row row : database.get().read(c -> TeamStore.of(c, null))) {
      List<Execution> newest =
          executions.query(new Executions.Query(null, null, null, row.sessionId(), 1));
      if (!newest.isEmpty() && !newest.get(0).id().equals(row.reportedExecution())) {
        report(row, newest.get(0));
      }
    }
  }

  // ---- helpers

  /** The calling session, which must be a team's main session. */
  private Session main(String sessionId) {
    Session session;
    try {
      session = sessions.get(sessionId);
    } catch (SessionException e) {
      throw new CodedException(
          Team.Codes.NO_SESSION, "No session '" + sessionId + "' on this agent server.");
    }
    if (!SessionEnvironment.groups(session, team).contains("workers")) {
      throw new CodedException(
          Team.Codes.NOT_A_MAIN,
          "Only a team's main session has workers; this session is not one"
              + (team.enabled() ? "." : " (team mode is off: [team] enabled in cortex.toml)."));
    }
    return session;
  }

  private TeamStore.Row worker(String mainId, String worker) {
    TeamStore.Row row =
        database
            .get()
            .read(
                c ->
                    Team.WORKER_ID.matcher(worker).matches()
                        ? TeamStore.get(c, worker)
                        : TeamStore.named(c, mainId, worker));
    if (row == null || !row.mainSessionId().equals(mainId)) {
      throw new CodedException(
          Team.Codes.NOT_FOUND,
          "This session has no worker '" + worker + "': worker_list shows its workers.");
    }
    return row;
  }

  private Team.Worker view(TeamStore.Row row, boolean whole) {
    String state;
    try {
      state = sessions.get(row.sessionId()).state().wire();
    } catch (SessionException e) {
      state = "gone";
    }
    List<String> pending =
        interactions.list(new Interactions.Listing(row.sessionId(), false)).interactions().stream()
            .map(Interactions.View::id)
            .toList();
    String report = row.lastReport();
    if (report != null && !whole) {
      report = cut(report, Team.ROSTER_REPORT);
    }
    return new Team.Worker(
        row.id(),
        row.name(),
        row.sessionId(),
        row.backend(),
        row.model(),
        state,
        row.lastStatus(),
        report,
        row.lastReportAt() == null ? null : row.lastReportAt().toString(),
        whole ? 0 : row.unread(),
        pending,
        row.createdAt().toString());
  }

  private void note(String sessionId, String text) {
    try {
      sessions.record(sessionId, Transcript.Kind.NOTE, Transcript.text(text));
    } catch (SessionException e) {
      log.debug("no note for {}", sessionId);
    }
  }

  private static String cut(String text) {
    return cut(text, Team.ROSTER_REPORT);
  }

  private static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max) + " …";
  }

  private static String hex(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return HexFormat.of().formatHex(value).toLowerCase(Locale.ROOT);
  }

  @Override
  public void close() {
    if (following != null) {
      following.close();
    }
    reports.shutdown();
  }
}
