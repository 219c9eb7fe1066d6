package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Inbox;
import dev.cortex.server.sessions.store.Session;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/** What the recovery after a start changes: the earlier server's turns, never this one's. */
class RecoverTest extends WithService {
  /**
   * A send that came in before the recovery started a turn whose offers the recovery then reset:
   * the message was offered again in a later turn (twice in all), and the running session was
   * marked interrupted.
   */
  @Test
  void recover_whileATurnOfThisServerRuns_leavesItsOffersAndItsSessionAlone() throws Exception {
    Session session =
        session(
            "recovered",
            "read -r line\n"
                + HELLO
                + """
                printf '%s\\n' "$line" >> "$dir/recovered.turns"
                echo '{"type":"ack","id":"1"}'
                echo '{"type":"text","text":"ready"}'
                read -r more
                echo '{"type":"text","text":"thinking"}'
                while [ ! -e "$dir/recovered-release" ]; do sleep 0.05; done
                """
                + INJECTED_ID
                + """
                echo '{"type":"ack","id":"'"$id"'"}'
                echo '{"type":"end","status":"completed","result":"done"}'
                """);
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send(session.id(), "first", "person");
    awaitSaid(updates, "ready");
    SessionService.Delivery second = sessions.wake(session.id(), "second", "waitpoint", "k-1");
    assertThat(second.status()).isEqualTo(SessionService.OFFERED);
    awaitSaid(updates, "thinking");

    sessions.recover();

    assertThat(store.inbox().state(session.id(), 2)).isEqualTo(Inbox.State.OFFERED);
    assertThat(sessions.get(session.id()).state()).isEqualTo(Session.State.RUNNING);
    Files.writeString(work.resolve("recovered-release"), "");
    assertThat(awaitEnd(updates, first.executionId()).status())
        .isEqualTo(Execution.Status.COMPLETED);
    assertThat(store.inbox().state(session.id(), 2)).isEqualTo(Inbox.State.DELIVERED);
    assertThat(Files.readAllLines(work.resolve("recovered.turns"))).hasSize(1);
    List<String> bodies = bodies(session);
    assertThat(bodies).noneMatch(b -> b.contains("interrupted"));
    assertThat(bodies).containsOnlyOnce("{\"text\":\"second\",\"source\":\"waitpoint\"}");
  }

  @Test
  void recover_offersOfATurnThatNoLongerRuns_goBackToTheQueue() throws Exception {
    Session session = session("earlier", "read -r line\n");
    Inbox inbox = store.inbox();
    inbox.enqueue(session.id(), "left offered", "person");
    String earlier = executions.start("turn", session);
    inbox.offer(session.id(), List.of(1L), earlier);
    executions.finish(earlier, Execution.Status.FAILED, null, "gone", 0, 0);

    sessions.recover();

    assertThat(inbox.state(session.id(), 1)).isEqualTo(Inbox.State.QUEUED);
  }
}
