package dev.cortex.server.daemon;

import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.storage.Database;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The results of a background {@code agent} call, sent to its parent session as one message once
 * its last subagent ended: each subagent with its status and its output or error.
 */
final class SubagentResults {
  private static final Logger log = LoggerFactory.getLogger(SubagentResults.class);

  private final Supplier<Database> database;
  private final SessionService sessions;
  private final Clock clock;

  SubagentResults(Supplier<Database> database, SessionService sessions, Clock clock) {
    this.database = database;
    this.sessions = sessions;
    this.clock = clock;
  }

  /**
   * Sends the results of a background call to its parent, once: the inbox key is the call's, so
   * that a repeat (after a restart, say) is no new message.
   */
  void deliver(String callId) {
    List<SubagentStore.Row> rows = database.get().read(c -> SubagentStore.ofCall(c, callId));
    if (rows.isEmpty() || rows.stream().anyMatch(SubagentStore.Row::running)) {
      return;
    }
    StringBuilder text = new StringBuilder("The background subagents of ");
    text.append(callId).append(" ended.\n");
    for (SubagentStore.Row r : rows) {
      text.append("\n[")
          .append(r.id())
          .append("] ")
          .append(r.description())
          .append(" — ")
          .append(r.status());
      if (r.output() != null) {
        text.append(":\n").append(r.output());
      } else if (r.error() != null) {
        text.append(": ").append(r.error());
      }
      text.append('\n');
    }
    try {
      sessions.wake(
          rows.get(0).parentSessionId(), text.toString(), "subagent", "subagent:" + callId);
      database
          .get()
          .write(
              c -> {
                SubagentStore.delivered(c, callId, clock.instant());
                return null;
              });
    } catch (SessionException e) {
      log.info("the parent of {} is gone; its results are dropped", callId);
      database
          .get()
          .write(
              c -> {
                SubagentStore.delivered(c, callId, clock.instant());
                return null;
              });
    }
  }
}
