package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Inbox;
import dev.cortex.server.sessions.store.Session;
import java.nio.file.Files;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * A wake is never lost to a budget: a turn it would start while a budget is spent is refused, and
 * the wake waits in the queue for the first turn the budget allows. A refused turn used to have its
 * messages delivered to it, though no agent ever saw them.
 */
class BudgetRefusalTest extends WithService {
  static final String KEEPS_ITS_TURNS =
      """
      read -r line
      printf '%s\\n' "$line" >> "$dir/$CORTEX_SESSION_ID.turns"
      echo '{"type":"end","status":"completed","result":"done"}'
      """;

  @Test
  void wake_whileABudgetIsSpent_waitsInTheQueue_andComesWithTheNextTurnItAllows() throws Exception {
    Session session = session("budgeted", KEEPS_ITS_TURNS);
    BlockingQueue<SessionService.Update> updates = follow(session);
    budgets = new Budgets(0.0, null, ZoneOffset.UTC, Map.of());

    SessionService.Delivery woken = sessions.wake(session.id(), "done", "waitpoint", "wp-1:1");

    assertThat(woken.status()).isEqualTo(SessionService.STARTED);
    SessionService.Update.Refused back =
        await(updates, SessionService.Update.Refused.class, "the wake back in the queue");
    assertThat(back.inboxSeq()).isEqualTo(woken.inboxSeq());
    assertThat(back.executionId()).isEqualTo(woken.executionId());
    assertThat(back.refusal()).contains("daily budget");
    SessionService.Update.TurnEnded refused = awaitEnd(updates, woken.executionId());
    assertThat(refused.status()).isEqualTo(Execution.Status.FAILED);
    assertThat(refused.error()).contains("daily budget");
    assertThat(store.inbox().state(session.id(), woken.inboxSeq())).isEqualTo(Inbox.State.QUEUED);
    assertThat(bodies(session)).noneMatch(body -> body.contains("\"source\":\"waitpoint\""));

    budgets = Budgets.NONE;
    SessionService.Delivery next = sessions.send(session.id(), "and now?", "person");

    assertThat(next.status()).isEqualTo(SessionService.STARTED);
    assertThat(awaitEnd(updates, next.executionId()).status())
        .isEqualTo(Execution.Status.COMPLETED);
    List<String> turns = Files.readAllLines(work.resolve(session.id() + ".turns"));
    assertThat(turns).hasSize(1);
    assertThat(turns.get(0)).contains("\"prompt\":\"done\\n\\nand now?\"");
    assertThat(store.inbox().state(session.id(), woken.inboxSeq()))
        .isEqualTo(Inbox.State.DELIVERED);
  }
}
