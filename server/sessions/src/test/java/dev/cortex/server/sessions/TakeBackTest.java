package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Inbox;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.testing.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * A turn whose backend never said how it takes messages (no {@code hello}, no first line) has not
 * shown that it took its prompt: whatever ends it — a stop, the server's shutdown, a program that
 * cannot start or crashes before its first line — puts the prompt back in the queue, where it waits
 * for the next message (it is not run again at once on the same messages).
 */
class TakeBackTest extends WithService {
  /** Reads its turn line, keeps it, and waits (long) without printing, unless it says "again". */
  static final String SILENT =
      """
      read -r line
      printf '%s\\n' "$line" >> "$dir/$CORTEX_SESSION_ID.turns"
      case "$line" in
        *again*) echo '{"type":"end","status":"completed","result":"done"}'; exit 0 ;;
      esac
      sleep 600 &
      wait
      """;

  Path turns(Session session) {
    return work.resolve(session.id() + ".turns");
  }

  Inbox.State state(Session session, long seq) {
    return store.inbox().state(session.id(), seq);
  }

  /**
   * A stopped turn whose program had printed nothing used to have its prompt marked delivered: the
   * message was consumed though no agent had shown it took it.
   */
  @Test
  void stop_beforeTheBackendsFirstLine_putsThePromptBack_forTheNextMessagesTurn() throws Exception {
    Session session = session("silent-stop", SILENT);
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send(session.id(), "first", "person");
    Eventually.until("the program read its turn line", () -> Files.exists(turns(session)));

    assertThat(sessions.stop(session.id(), "asked")).isTrue();

    SessionService.Update.TurnEnded end = awaitEnd(updates, first.executionId());
    assertThat(end.status()).isEqualTo(Execution.Status.CANCELLED);
    assertThat(state(session, 1)).isEqualTo(Inbox.State.QUEUED);
    assertThat(bodies(session)).doesNotContain("{\"text\":\"first\",\"source\":\"person\"}");
    assertThat(sessions.runningExecution(session.id())).as("not run again at once").isNull();
    SessionService.Delivery again = sessions.send(session.id(), "again", "person");
    assertThat(again.status()).isEqualTo(SessionService.STARTED);
    assertThat(awaitEnd(updates, again.executionId()).status())
        .isEqualTo(Execution.Status.COMPLETED);
    List<String> lines = Files.readAllLines(turns(session));
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1)).contains("\"prompt\":\"first\\n\\nagain\"");
    assertThat(bodies(session))
        .containsOnlyOnce("{\"text\":\"first\",\"source\":\"person\"}")
        .containsOnlyOnce("{\"text\":\"again\",\"source\":\"person\"}");
  }

  @Test
  void close_beforeTheBackendsFirstLine_leavesThePromptQueued() throws Exception {
    Session session = session("silent-close", SILENT);
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send(session.id(), "first", "person");
    Eventually.until("the program read its turn line", () -> Files.exists(turns(session)));

    sessions.close();

    awaitEnd(updates, first.executionId());
    assertThat(state(session, 1)).isEqualTo(Inbox.State.QUEUED);
    assertThat(bodies(session)).doesNotContain("{\"text\":\"first\",\"source\":\"person\"}");
  }

  @Test
  void send_toAProgramThatCannotStart_leavesTheMessageQueued() throws Exception {
    Session session = session("gone", "exit 0\n");
    Files.delete(work.resolve("gone.sh"));
    BlockingQueue<SessionService.Update> updates = follow(session);

    SessionService.Delivery first = sessions.send(session.id(), "first", "person");

    SessionService.Update.TurnEnded end = awaitEnd(updates, first.executionId());
    assertThat(end.status()).isEqualTo(Execution.Status.FAILED);
    assertThat(state(session, 1)).isEqualTo(Inbox.State.QUEUED);
    assertThat(bodies(session)).doesNotContain("{\"text\":\"first\",\"source\":\"person\"}");
    assertThat(sessions.runningExecution(session.id())).isNull();
  }

  @Test
  void send_toAProgramThatCrashesBeforeItsFirstLine_leavesTheMessageQueued() throws Exception {
    Session session =
        session(
            "crashing",
            """
            read -r line
            printf '%s\\n' "$line" >> "$dir/$CORTEX_SESSION_ID.turns"
            echo 'going down' >&2
            exit 4
            """);
    BlockingQueue<SessionService.Update> updates = follow(session);

    SessionService.Delivery first = sessions.send(session.id(), "first", "person");

    SessionService.Update.TurnEnded end = awaitEnd(updates, first.executionId());
    assertThat(end.status()).isEqualTo(Execution.Status.FAILED);
    assertThat(end.error()).contains("exited with code 4").contains("going down");
    assertThat(state(session, 1)).isEqualTo(Inbox.State.QUEUED);
    assertThat(bodies(session)).doesNotContain("{\"text\":\"first\",\"source\":\"person\"}");
  }

  /** A protocol-1 program's first line (not {@code hello}) says it has its prompt. */
  @Test
  void send_toAProgramOfProtocol1_deliversThePromptAtItsFirstLine() throws Exception {
    Session session =
        session(
            "first-line",
            """
            read -r line
            echo '{"type":"text","text":"got it"}'
            sleep 600 &
            wait
            """);
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send(session.id(), "first", "person");
    awaitSaid(updates, "got it");

    assertThat(state(session, 1)).isEqualTo(Inbox.State.DELIVERED);
    sessions.stop(session.id(), "asked");
    awaitEnd(updates, first.executionId());
    assertThat(state(session, 1)).isEqualTo(Inbox.State.DELIVERED);
    assertThat(bodies(session)).containsOnlyOnce("{\"text\":\"first\",\"source\":\"person\"}");
  }
}
