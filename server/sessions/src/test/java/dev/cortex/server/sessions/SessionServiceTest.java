package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.Transcript;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import org.junit.jupiter.api.Test;

/** The sessions' turns: their transcripts, costs, stops, max_turn, and where a message goes. */
class SessionServiceTest extends WithService {
  @Test
  void send_idleSession_startsATurn_whoseEventsBecomeTheTranscript() throws Exception {
    Session session =
        session(
            "plain",
            """
            read -r line
            echo '{"type":"text","text":"hello"}'
            echo '{"type":"tool_use","id":"t1","name":"clock","input":{"zone":"UTC"}}'
            echo '{"type":"tool_result","tool_use_id":"t1","content":"12:00","is_error":false}'
            echo 'not json'
            echo '{"type":"cost","model":"m","input_tokens":3,"output_tokens":4,"usd":0.25}'
            echo '{"type":"end","status":"completed","result":"hello"}'
            """);
    BlockingQueue<SessionService.Update> updates = follow(session);

    SessionService.Delivery delivery = sessions.send("plain", "hi there", "person");

    assertThat(delivery.status()).isEqualTo("started");
    assertThat(delivery.inboxSeq()).isEqualTo(1);
    SessionService.Update.TurnEnded end =
        await(updates, SessionService.Update.TurnEnded.class, "turn end");
    assertThat(end.executionId()).isEqualTo(delivery.executionId());
    assertThat(end.status()).isEqualTo(Execution.Status.COMPLETED);
    assertThat(bodies(session))
        .containsExactly(
            "{\"text\":\"hi there\",\"source\":\"person\"}",
            "{\"text\":\"hello\"}",
            "{\"id\":\"t1\",\"name\":\"clock\",\"input\":{\"zone\":\"UTC\"}}",
            "{\"tool_use_id\":\"t1\",\"content\":\"12:00\",\"is_error\":false}",
            "{\"text\":\"the backend printed a line that is not JSON: not json\"}");
    Execution execution = executions.get(delivery.executionId());
    assertThat(execution.status()).isEqualTo(Execution.Status.COMPLETED);
    assertThat(execution.costUsd()).isEqualTo(0.25);
    assertThat(sessions.runningExecution(session.id())).isNull();
    assertThat(sessions.get("plain").state()).isEqualTo(Session.State.IDLE);
  }

  @Test
  void create_isHeardByTheFollowersOfEverySession_butARefusedOneIsNot() throws Exception {
    List<String> created = new java.util.concurrent.CopyOnWriteArrayList<>();
    sessions.followAll(
        (id, update) -> {
          if (update instanceof SessionService.Update.Created) {
            created.add(id);
          }
        });

    Session session = session("announced", HELLO);
    assertThatThrownBy(
            () ->
                sessions.create(
                    new SessionService.NewSession(
                        "refused",
                        null,
                        null,
                        "no-such-backend",
                        null,
                        null,
                        null,
                        null,
                        null,
                        List.of("true"),
                        work,
                        null)))
        .isInstanceOf(SessionException.class);

    assertThat(created).containsExactly(session.id());
  }

  @Test
  void send_costWithoutAFigure_pricesEveryKindOfTokenAtTheTablesRate() throws Exception {
    Session session =
        session(
            "cached",
            """
            read -r line
            echo '{"type":"cost","model":"claude-sonnet-4-5","input_tokens":1000000,"output_tokens":0,"cache_read_tokens":1000000,"cache_write_tokens":1000000,"usd":null}'
            echo '{"type":"end","status":"completed","result":"ok"}'
            """);
    BlockingQueue<SessionService.Update> updates = follow(session);

    SessionService.Delivery delivery = sessions.send("cached", "hi", "person");

    await(updates, SessionService.Update.TurnEnded.class, "turn end");
    // $3 input, $0.30 cache reads and $3.75 cache writes a million for claude-sonnet-4-5.
    assertThat(executions.get(delivery.executionId()).costUsd()).isCloseTo(7.05, within(1e-9));
  }

  @Test
  void sweep_aTurnPastMaxTurnByTheClock_isStoppedAndFails() throws Exception {
    Session session = session("hung", WORKING);
    BlockingQueue<SessionService.Update> updates = follow(session);
    String execution = sessions.send("hung", "work", "person").executionId();
    awaitSaid(updates, "working");

    clock.advance(Duration.ofSeconds(59));
    sessions.sweep();
    assertThat(sessions.runningExecution(session.id())).isEqualTo(execution);

    clock.advance(Duration.ofSeconds(2));
    sessions.sweep();

    SessionService.Update.TurnEnded end =
        await(updates, SessionService.Update.TurnEnded.class, "turn end");
    assertThat(end.status()).isEqualTo(Execution.Status.FAILED);
    assertThat(end.error()).isEqualTo("The turn was stopped: it ran longer than max_turn (1 min).");
    assertThat(executions.get(execution).error()).isEqualTo(end.error());
    List<String> bodies = bodies(session);
    assertThat(bodies.get(bodies.size() - 1)).isEqualTo(Transcript.text(end.error()));
    assertThat(sessions.runningExecution(session.id())).isNull();
  }

  @Test
  void stop_aRunningTurn_isCancelledWithTheReason_andTheNextStopFindsNone() throws Exception {
    Session session = session("stoppable", WORKING);
    BlockingQueue<SessionService.Update> updates = follow(session);
    sessions.send("stoppable", "work", "person");
    awaitSaid(updates, "working");

    assertThat(sessions.stop("stoppable", "asked by the person")).isTrue();

    SessionService.Update.TurnEnded end =
        await(updates, SessionService.Update.TurnEnded.class, "turn end");
    assertThat(end.status()).isEqualTo(Execution.Status.CANCELLED);
    assertThat(end.error()).isEqualTo("The turn was stopped: asked by the person.");
    assertThat(sessions.stop("stoppable", "again")).isFalse();
    clock.advance(Duration.ofHours(1));
    sessions.sweep();
    assertThat(executions.get(end.executionId()).status()).isEqualTo(Execution.Status.CANCELLED);
  }

  @Test
  void send_whileTheTurnReads_isInjectedIntoIt() throws Exception {
    Session session =
        session(
            "reading",
            "read -r line\n"
                + HELLO
                + """
                echo '{"type":"ack","id":"1"}'
                echo '{"type":"text","text":"ready"}'
                read -r more
                """
                + INJECTED_ID
                + """
                echo '{"type":"ack","id":"'"$id"'"}'
                echo '{"type":"text","text":"got more"}'
                echo '{"type":"end","status":"completed","result":"done"}'
                """);
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send("reading", "first", "person");
    awaitSaid(updates, "ready");

    SessionService.Delivery second = sessions.send("reading", "second", "person");

    assertThat(second.status()).isEqualTo("injected");
    assertThat(second.executionId()).isEqualTo(first.executionId());
    await(updates, SessionService.Update.TurnEnded.class, "turn end");
    assertThat(sessions.transcript(session.id(), 0, 100))
        .extracting(Transcript.Entry::kind)
        .containsExactly(
            Transcript.Kind.USER,
            Transcript.Kind.ASSISTANT,
            Transcript.Kind.USER,
            Transcript.Kind.ASSISTANT);
  }

  /**
   * A message the running turn was given but did not acknowledge before it ended goes back to the
   * head of the queue: the next turn gets it, and its transcript entry is written then, once.
   */
  @Test
  void send_notAcknowledgedBeforeTheTurnEnds_isTheNextTurnsPrompt_recordedOnceThen()
      throws Exception {
    Session session =
        session(
            "unacknowledged",
            "read -r line\n"
                + HELLO
                + """
                printf '%s\\n' "$line" >> "$dir/unacknowledged.turns"
                echo '{"type":"ack","id":"'$(printf '%s' "$line" | sed 's/.*"messages":\\[{"id":"\\([0-9]*\\)".*/\\1/')'"}'
                echo '{"type":"text","text":"ready"}'
                case "$line" in
                  *first*) read -r more; echo '{"type":"text","text":"read, not taken"}' ;;
                esac
                echo '{"type":"end","status":"completed","result":"done"}'
                """);
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send("unacknowledged", "first", "person");
    awaitSaid(updates, "ready");

    SessionService.Delivery second = sessions.send("unacknowledged", "second", "person");

    assertThat(second.status()).as("the turn ended without taking it").isIn("queued", "offered");
    SessionService.Update.Returned back =
        await(updates, SessionService.Update.Returned.class, "the message back in the queue");
    assertThat(back).isEqualTo(new SessionService.Update.Returned(2, first.executionId()));
    SessionService.Update.Delivered taken =
        await(updates, SessionService.Update.Delivered.class, "the message taken next");
    assertThat(taken.inboxSeq()).isEqualTo(2);
    assertThat(taken.executionId()).isNotEqualTo(first.executionId());
    SessionService.Update.TurnEnded next = awaitEnd(updates, taken.executionId());
    assertThat(next.status()).isEqualTo(Execution.Status.COMPLETED);
    List<Transcript.Entry> users =
        sessions.transcript(session.id(), 0, 100).stream()
            .filter(e -> e.kind() == Transcript.Kind.USER)
            .toList();
    assertThat(users)
        .extracting(Transcript.Entry::body)
        .containsExactly(
            "{\"text\":\"first\",\"source\":\"person\"}",
            "{\"text\":\"second\",\"source\":\"person\"}");
    assertThat(users.get(1).executionId()).isEqualTo(taken.executionId());
    List<String> turns = Files.readAllLines(work.resolve("unacknowledged.turns"));
    assertThat(turns).hasSize(2);
    assertThat(turns.get(1)).contains("\"messages\":[{\"id\":\"2\",\"text\":\"second\"}]");
  }

  /**
   * A message offered to a turn that has not acknowledged it within the send's wait is answered
   * offered; it has no transcript entry until the turn takes it.
   */
  @Test
  void send_toATurnThatDoesNotAcknowledgeYet_isOffered_andNotRecorded() throws Exception {
    Session session =
        session(
            "slow",
            "read -r line\n"
                + HELLO
                + """
                echo '{"type":"ack","id":"1"}'
                echo '{"type":"text","text":"ready"}'
                read -r more
                echo '{"type":"text","text":"thinking"}'
                while [ ! -e "$dir/slow-release" ]; do sleep 0.05; done
                """
                + INJECTED_ID
                + """
                echo '{"type":"ack","id":"'"$id"'"}'
                echo '{"type":"end","status":"completed","result":"done"}'
                """);
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send("slow", "first", "person");
    awaitSaid(updates, "ready");

    SessionService.Delivery second = sessions.send("slow", "second", "person");

    assertThat(second.status()).isEqualTo("offered");
    assertThat(second.executionId()).isEqualTo(first.executionId());
    assertThat(bodies(session)).doesNotContain("{\"text\":\"second\",\"source\":\"person\"}");
    Files.writeString(work.resolve("slow-release"), "");
    SessionService.Update.Delivered taken =
        await(updates, SessionService.Update.Delivered.class, "the message taken");
    assertThat(taken).isEqualTo(new SessionService.Update.Delivered(2, first.executionId()));
    await(updates, SessionService.Update.TurnEnded.class, "turn end");
    assertThat(bodies(session)).containsOnlyOnce("{\"text\":\"second\",\"source\":\"person\"}");
  }

  /**
   * A backend that says it acknowledges and then fails before it took anything is not run again at
   * once on the same messages (it would fail again, and again): they wait for the next message.
   */
  @Test
  void send_toABackendThatFailsBeforeTakingAnything_doesNotRestartAtOnce() throws Exception {
    Session session =
        session(
            "failing",
            "read -r line\n"
                + HELLO
                + """
                printf '%s\\n' "$line" >> "$dir/failing.turns"
                echo 'going down' >&2
                exit 4
                """);
    BlockingQueue<SessionService.Update> updates = follow(session);

    SessionService.Delivery first = sessions.send("failing", "first", "person");

    SessionService.Update.TurnEnded end =
        await(updates, SessionService.Update.TurnEnded.class, "turn end");
    assertThat(end.status()).isEqualTo(Execution.Status.FAILED);
    assertThat(end.executionId()).isEqualTo(first.executionId());
    assertThat(bodies(session)).doesNotContain("{\"text\":\"first\",\"source\":\"person\"}");
    assertThat(sessions.runningExecution(session.id())).isNull();
    SessionService.Delivery second = sessions.send("failing", "second", "person");
    assertThat(second.status()).isEqualTo("started");
    await(updates, SessionService.Update.TurnEnded.class, "the second turn's end");
    List<String> turns = Files.readAllLines(work.resolve("failing.turns"));
    assertThat(turns).hasSize(2);
    assertThat(turns.get(1)).contains("\"prompt\":\"first\\n\\nsecond\"");
  }

  @Test
  void send_whileTheTurnTakesNoInput_isQueued_andStartsTheNextTurn() throws Exception {
    Session session = session("holding", holding("release"));
    BlockingQueue<SessionService.Update> updates = follow(session);
    SessionService.Delivery first = sessions.send("holding", "first", "person");
    awaitSaid(updates, "holding");

    SessionService.Delivery second = sessions.send("holding", "second", "person");

    assertThat(second.status()).isEqualTo("queued");
    assertThat(second.executionId()).isEqualTo(first.executionId());
    Files.writeString(work.resolve("release"), "");
    SessionService.Update.Delivered taken =
        await(updates, SessionService.Update.Delivered.class, "the queued message taken");
    assertThat(taken.inboxSeq()).isEqualTo(second.inboxSeq());
    assertThat(taken.executionId()).isNotEqualTo(first.executionId());
  }

  @Test
  void wake_theSameKeyTwice_deliversTheMessageOnce() throws Exception {
    Session session =
        session(
            "woken",
            """
            read -r line
            echo '{"type":"end","status":"completed","result":"ok"}'
            """);
    BlockingQueue<SessionService.Update> updates = follow(session);

    SessionService.Delivery first = sessions.wake(session.id(), "done", "waitpoint", "wp-1:1");
    await(updates, SessionService.Update.TurnEnded.class, "turn end");
    SessionService.Delivery again = sessions.wake(session.id(), "done", "waitpoint", "wp-1:1");

    assertThat(first.status()).isEqualTo("started");
    assertThat(again.status()).isEqualTo("delivered");
    assertThat(again.inboxSeq()).isEqualTo(first.inboxSeq());
    assertThat(bodies(session)).containsExactly("{\"text\":\"done\",\"source\":\"waitpoint\"}");
  }

  @Test
  void create_badRequests_areRefusedWithTheRule_andNothingIsWritten() throws Exception {
    assertThatThrownBy(
            () ->
                sessions.create(
                    new SessionService.NewSession(
                        null, null, null, "gpt", null, null, null, null, null, null, work, null)))
        .isInstanceOf(SessionException.class)
        .hasMessage("Unknown backend 'gpt'. Known: command, claude.");
    assertThatThrownBy(
            () ->
                sessions.create(
                    new SessionService.NewSession(
                        "x", "irc:#a", null, "claude", null, null, null, null, null, null, work,
                        null)))
        .hasMessage(
            "'irc:#a' is not a channel: cli: and an id (web:, slack: and feishu: are reserved).");
    for (String channel : List.of("web:board-7", "slack:C0123", "feishu:oc_42")) {
      assertThatThrownBy(
              () ->
                  sessions.create(
                      new SessionService.NewSession(
                          null, channel, null, "claude", null, null, null, null, null, null, work,
                          null)))
          .isInstanceOf(SessionException.class)
          .hasMessageStartingWith("Channel " + channel + " is reserved for the ")
          .extracting(e -> ((SessionException) e).code())
          .isEqualTo(SessionException.RESERVED_CHANNEL);
    }
    assertThatThrownBy(() -> sessions.send("nobody", "hi", "person"))
        .isInstanceOf(SessionException.class)
        .hasMessage("No session 'nobody'.");
    assertThatThrownBy(() -> sessions.send("nobody", " ", "person"))
        .hasMessage("The message is empty.");
    assertThat(sessions.list(10)).isEmpty();
  }

  @Test
  void follow_pastTheMostFollowers_isRefused() throws Exception {
    Session session = session("crowded", "read -r line\n");
    for (int i = 0; i < SessionService.MAX_FOLLOWERS; i++) {
      sessions.follow(session.id(), update -> {});
    }

    assertThatThrownBy(() -> sessions.follow(session.id(), update -> {}))
        .isInstanceOf(SessionException.class)
        .hasMessage("Session " + session.id() + " has 32 followers already.");
  }
}
