package dev.cortex.server.daemon;

import dev.cortex.protocol.session.SessionEvent;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Transcript;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A followed send: streams the entries of the turn that takes the message as they are recorded,
 * with a progress line after every {@code progressSeconds} without news, until the turn ends or the
 * follow limit passes.
 */
final class FollowedTurn {
  private final JsonRoutes.Lines lines;
  private final BlockingQueue<SessionService.Update> updates;
  private final Duration limit;
  private final long every;

  /**
   * @param updates the session's live events, followed since before the message was sent
   * @param progressSeconds 0 for no progress lines
   */
  FollowedTurn(
      JsonRoutes.Lines lines,
      BlockingQueue<SessionService.Update> updates,
      Duration limit,
      int progressSeconds) {
    this.lines = lines;
    this.updates = updates;
    this.limit = limit;
    this.every = TimeUnit.SECONDS.toNanos(progressSeconds);
  }

  /**
   * Streams until the end of the turn that takes {@code delivery}'s message, and returns it: the
   * turn it was offered to, unless that one ended without taking it (the message went back to the
   * queue), then the one that takes it next.
   */
  Sessions.TurnEnd follow(Sessions.Delivery delivery) throws InterruptedException {
    String execution =
        delivery.status().equals(Sessions.Delivery.QUEUED) ? null : delivery.executionId();
    long now = System.nanoTime();
    long deadline = now + limit.toNanos();
    long started = now;
    long news = now;
    long shown = now;
    int toolCalls = 0;
    while (System.nanoTime() < deadline && !lines.failed()) {
      SessionService.Update update = updates.poll(1, TimeUnit.SECONDS);
      now = System.nanoTime();
      if (update instanceof SessionService.Update.Delivered delivered
          && delivered.inboxSeq() == delivery.inboxSeq()) {
        execution = delivered.executionId();
        started = now;
        news = now;
      } else if (update instanceof SessionService.Update.Returned returned
          && returned.inboxSeq() == delivery.inboxSeq()) {
        // The turn ended before it took the message: the next turn takes it.
        execution = null;
      } else if (update instanceof SessionService.Update.Refused refused
          && refused.inboxSeq() == delivery.inboxSeq()) {
        // The turn that would take it may not start (a spent budget): say so now; the message
        // waits in the queue for the first turn that may.
        return new Sessions.TurnEnd(
            refused.executionId(), Execution.Status.FAILED.wire(), refused.refusal());
      } else if (update instanceof SessionService.Update.Entry entry
          && execution != null
          && execution.equals(entry.entry().executionId())) {
        if (entry.entry().kind() == Transcript.Kind.TOOL_USE) {
          toolCalls++;
        }
        lines.write(new SessionEvent.Recorded(SessionRoutes.entry(entry.entry())));
        news = now;
      } else if (update instanceof SessionService.Update.TurnEnded ended
          && ended.executionId().equals(execution)) {
        return new Sessions.TurnEnd(ended.executionId(), ended.status().wire(), ended.error());
      }
      if (every > 0 && now - Math.max(news, shown) >= every) {
        // Nothing came for a while: say the turn still runs, or the message still waits for the
        // running one (this also keeps the stream alive).
        lines.write(
            new SessionEvent.Progressed(
                new Sessions.Progress(
                    execution == null,
                    execution,
                    TimeUnit.NANOSECONDS.toSeconds(now - started),
                    TimeUnit.NANOSECONDS.toSeconds(now - news),
                    toolCalls)));
        shown = now;
      }
    }
    return new Sessions.TurnEnd(
        execution,
        Sessions.TurnEnd.FOLLOWING_ENDED,
        "stopped following after " + limit.toMinutes() + " min; the turn may still run");
  }
}
