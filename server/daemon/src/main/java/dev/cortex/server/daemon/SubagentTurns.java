package dev.cortex.server.daemon;

import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Transcript;
import dev.cortex.storage.Database;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One subagent's turn: its prompt sent to its child session, the turn followed to its end, and how
 * it ended recorded (completed with the turn's output and cost; stopped, interrupted while the
 * server stops, or failed), with a note in the parent's transcript as it starts and ends. A
 * subagent no longer running (stopped before its turn) is left as it is.
 */
final class SubagentTurns {
  private static final Logger log = LoggerFactory.getLogger(SubagentTurns.class);

  private final Supplier<Database> database;
  private final SessionService sessions;
  private final Executions executions;
  private final Clock clock;
  private final BooleanSupplier closing;

  SubagentTurns(
      Supplier<Database> database,
      SessionService sessions,
      Executions executions,
      Clock clock,
      BooleanSupplier closing) {
    this.database = database;
    this.sessions = sessions;
    this.executions = executions;
    this.clock = clock;
    this.closing = closing;
  }

  /** Runs one subagent's turn in its child session, and records how it ended. */
  void run(String agentId, String prompt) {
    SubagentStore.Row row = row(agentId);
    if (!row.running() || closing.getAsBoolean()) {
      return;
    }
    note(
        row.parentSessionId(),
        "Subagent "
            + agentId
            + " ("
            + row.subagentType()
            + ") started in session "
            + row.childSessionId()
            + ": "
            + row.description());
    CompletableFuture<SessionService.Update.TurnEnded> ended = new CompletableFuture<>();
    try (SessionService.Subscription ignored =
        sessions.follow(
            row.childSessionId(),
            update -> {
              if (update instanceof SessionService.Update.TurnEnded end) {
                ended.complete(end);
              }
            })) {
      sessions.send(row.childSessionId(), prompt, "subagent");
      SessionService.Update.TurnEnded end = ended.join();
      Execution execution = executions.get(end.executionId());
      double usd = execution == null ? 0 : execution.costUsd();
      String status =
          switch (end.status()) {
            case COMPLETED -> SubagentStore.COMPLETED;
            case CANCELLED ->
                closing.getAsBoolean() ? SubagentStore.INTERRUPTED : SubagentStore.STOPPED;
            default -> SubagentStore.FAILED;
          };
      finish(
          agentId,
          status,
          status.equals(SubagentStore.COMPLETED) && execution != null ? execution.output() : null,
          end.error(),
          usd);
    } catch (SessionException e) {
      finish(agentId, SubagentStore.FAILED, null, e.getMessage(), 0);
    }
    SubagentStore.Row done = row(agentId);
    note(
        row.parentSessionId(),
        "Subagent "
            + agentId
            + " "
            + done.status()
            + String.format(java.util.Locale.ROOT, " (%.4f USD)", done.costUsd())
            + (done.error() == null ? "." : ": " + done.error()));
  }

  private void note(String sessionId, String text) {
    try {
      sessions.record(sessionId, Transcript.Kind.NOTE, Transcript.text(text));
    } catch (SessionException e) {
      log.debug("no note for {}", sessionId);
    }
  }

  SubagentStore.Row row(String agentId) {
    return database.get().read(c -> SubagentStore.get(c, agentId));
  }

  boolean finish(String agentId, String status, String output, String error, double usd) {
    return database
        .get()
        .write(c -> SubagentStore.finish(c, agentId, status, output, error, usd, clock.instant()));
  }
}
