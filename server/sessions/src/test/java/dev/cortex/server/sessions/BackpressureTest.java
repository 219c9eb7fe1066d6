package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Inbox;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.Transcript;
import dev.cortex.testing.Eventually;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * How much a running turn and the server hold for an agent that is slow to acknowledge: a turn is
 * offered at most {@link Offers#MAX_UNACKNOWLEDGED} messages it has not acknowledged (the rest wait
 * in the queue, offered as it acknowledges), and only so many sends wait for acknowledgements at
 * once ({@link AckWaits}).
 */
class BackpressureTest extends WithService {
  /**
   * Acknowledges its prompt, says ready, waits for {@code $dir/NAME-release}, then reads and
   * acknowledges {@code count} injected messages, and ends.
   */
  static String slowReader(String name, int count) {
    return "read -r line\n"
        + HELLO
        + """
        echo '{"type":"ack","id":"1"}'
        echo '{"type":"text","text":"ready"}'
        while [ ! -e "$dir/NAME-release" ]; do sleep 0.05; done
        n=0
        while [ $n -lt COUNT ]; do
          read -r more
        """
            .replace("NAME", name)
            .replace("COUNT", Integer.toString(count))
        + "  "
        + INJECTED_ID
        + """
          echo '{"type":"ack","id":"'"$id"'"}'
          n=$((n+1))
        done
        echo '{"type":"end","status":"completed","result":"done"}'
        """;
  }

  Inbox.State state(Session session, long seq) {
    return store.inbox().state(session.id(), seq);
  }

  /**
   * Every queued message used to be offered at once (up to 1 MB each) to a program that may have
   * stopped reading: twenty messages were twenty lines in its input.
   */
  @Test
  void wake_pastTheCapOfATurnThatDoesNotAcknowledge_waitsQueued_andIsOfferedAsItAcknowledges()
      throws Exception {
    Session session = session("capped", slowReader("capped", 20));
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send(session.id(), "first", "person");
    awaitSaid(updates, "ready");

    List<SessionService.Delivery> wakes = new ArrayList<>();
    for (int i = 1; i <= 20; i++) {
      wakes.add(sessions.wake(session.id(), "wake " + i, "waitpoint", "capped-" + i));
    }

    assertThat(wakes.subList(0, Offers.MAX_UNACKNOWLEDGED))
        .allSatisfy(w -> assertThat(w.status()).isEqualTo(SessionService.OFFERED));
    assertThat(wakes.subList(Offers.MAX_UNACKNOWLEDGED, 20))
        .allSatisfy(
            w -> {
              assertThat(w.status()).isEqualTo(SessionService.QUEUED);
              assertThat(w.executionId()).isEqualTo(first.executionId());
            });
    assertThat(state(session, 2 + Offers.MAX_UNACKNOWLEDGED)).isEqualTo(Inbox.State.QUEUED);
    Files.writeString(work.resolve("capped-release"), "");
    assertThat(awaitEnd(updates, first.executionId()).status())
        .isEqualTo(Execution.Status.COMPLETED);
    for (long seq = 1; seq <= 21; seq++) {
      assertThat(state(session, seq)).as("message %d", seq).isEqualTo(Inbox.State.DELIVERED);
    }
    List<Transcript.Entry> users =
        sessions.transcript(session.id(), 0, 100).stream()
            .filter(e -> e.kind() == Transcript.Kind.USER)
            .toList();
    assertThat(users).hasSize(21);
    assertThat(users).allSatisfy(e -> assertThat(e.executionId()).isEqualTo(first.executionId()));
    assertThat(users.get(20).body()).contains("wake 20");
  }

  /**
   * Each send held an HTTP thread for up to the ack wait, however many came at once: a burst of
   * sends to slow agents could take every thread. Beyond the sends that may wait, a send answers at
   * once.
   */
  @Test
  void send_whileAsManySendsWaitAsMay_answersOfferedAtOnce() throws Exception {
    sessions.close();
    AckWaits ackWaits = new AckWaits(1, Duration.ofMinutes(2));
    sessions = service(ackWaits);
    Session a = session("slow-a", slowReader("slow-a", 1));
    Session b = session("slow-b", slowReader("slow-b", 1));
    BlockingQueue<SessionService.Update> updatesA = follow(a);
    BlockingQueue<SessionService.Update> updatesB = follow(b);
    sessions.send(a.id(), "first", "person");
    sessions.send(b.id(), "first", "person");
    awaitSaid(updatesA, "ready");
    awaitSaid(updatesB, "ready");
    CompletableFuture<SessionService.Delivery> waiting =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return sessions.send(a.id(), "second", "person");
              } catch (SessionException e) {
                throw new IllegalStateException(e);
              }
            });
    Eventually.until("the send to a waits", () -> ackWaits.waiting() == 1);
    long before = System.nanoTime();

    SessionService.Delivery atOnce = sessions.send(b.id(), "second", "person");

    assertThat(atOnce.status()).isEqualTo(SessionService.OFFERED);
    assertThat(Duration.ofNanos(System.nanoTime() - before))
        .as("not the two minutes a send may wait")
        .isLessThan(Duration.ofMinutes(1));
    Files.writeString(work.resolve("slow-a-release"), "");
    assertThat(waiting.get(60, TimeUnit.SECONDS).status()).isEqualTo(SessionService.INJECTED);
    Files.writeString(work.resolve("slow-b-release"), "");
    awaitEnd(updatesB, atOnce.executionId());
    assertThat(state(b, 2)).isEqualTo(Inbox.State.DELIVERED);
  }
}
