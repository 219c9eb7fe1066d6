package dev.cortex.cli.sessions;

import dev.cortex.base.CodedException;
import dev.cortex.cli.Io;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.protocol.session.Sessions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The questions and plans of a chat's session, shown while a turn is followed: each new one once,
 * as a card on stderr, with the {@code cortex answer} line for it. The person may answer the newest
 * inline: {@code /answer ANSWER [| ANSWER…]} (one per question, separated by {@code |}), {@code
 * /approve}, or {@code /reject FEEDBACK}.
 */
final class ChatCards {
  private static final long EVERY_MILLIS = 1_000;

  private final Io io;
  private final SessionClient sessions;
  private final String session;
  private final Set<String> shown = new HashSet<>();
  private final ScheduledExecutorService poller =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread thread = new Thread(r, "cortex-chat-cards");
            thread.setDaemon(true);
            return thread;
          });
  private ScheduledFuture<?> polling;
  private volatile Interactions.View newest;

  ChatCards(Io io, SessionClient sessions, String session) {
    this.io = io;
    this.sessions = sessions;
    this.session = session;
  }

  synchronized void start() {
    polling = poller.scheduleWithFixedDelay(this::poll, 0, EVERY_MILLIS, TimeUnit.MILLISECONDS);
  }

  synchronized void stop() {
    if (polling != null) {
      polling.cancel(false);
      polling = null;
    }
  }

  private void poll() {
    try {
      for (Interactions.View v : sessions.interactions(new Interactions.Listing(session, null))) {
        if (shown.add(v.id())) {
          newest = v;
          synchronized (io.err()) {
            InteractionsCommand.card(io.err(), v);
            io.err().println("   (or here: " + inlineHint(v) + ")");
          }
        }
      }
    } catch (CodedException | Sessions.BadRequest e) {
      // the next poll tries again
    }
  }

  private static String inlineHint(Interactions.View v) {
    return v.kind().equals(Interactions.PLAN)
        ? "/approve, or /reject FEEDBACK"
        : "/answer ANSWER" + (v.questions().size() > 1 ? " | ANSWER…" : "");
  }

  /** Takes an inline answer to the newest question or plan; false for any other line. */
  boolean inline(String line) {
    String text = line.strip();
    Interactions.View v = newest;
    if (v == null
        || !(text.startsWith("/answer ")
            || text.equals("/approve")
            || text.startsWith("/reject"))) {
      return false;
    }
    SessionVerbs.attempt(
        io,
        () -> {
          Interactions.Answer answer;
          if (text.startsWith("/answer ")) {
            List<String> values = new ArrayList<>();
            for (String part : text.substring("/answer ".length()).split("\\|")) {
              values.add(part.strip());
            }
            answer =
                InteractionsCommand.answer(
                    v, values, false, false, null, InteractionsCommand.by(io));
          } else {
            boolean approve = text.equals("/approve");
            String feedback = approve ? null : text.substring("/reject".length()).strip();
            answer =
                InteractionsCommand.answer(
                    v, List.of(), approve, !approve, feedback, InteractionsCommand.by(io));
          }
          sessions.answer(answer);
          io.err().println("cortex: answered " + v.id());
          return 0;
        });
    return true;
  }
}
