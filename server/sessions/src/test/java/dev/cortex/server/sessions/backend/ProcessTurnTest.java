package dev.cortex.server.sessions.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.backend.BackendEvent.End;
import dev.cortex.server.sessions.backend.BackendEvent.Started;
import dev.cortex.server.sessions.backend.BackendEvent.Text;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A turn that is one process, through the command backend and small {@code sh} programs. */
class ProcessTurnTest {
  @TempDir Path dir;

  @Test
  void await_afterItReturns_theEndEventHasBeenDelivered() throws Exception {
    for (int i = 0; i < 20; i++) {
      TurnRecorder events = new TurnRecorder();
      RunningTurn turn =
          new CommandBackend()
              .start(
                  request(
                      "read line; echo '{\"type\":\"end\",\"status\":\"completed\",\"result\":\"ok\"}'"),
                  events);

      assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("ok"));
      assertThat(events.events()).as("run %d", i).containsExactly(End.completed("ok"));
    }
  }

  @Test
  void start_programPrintingBeforeItReadsItsTurn_losesNoLine() throws Exception {
    for (int i = 0; i < 20; i++) {
      TurnRecorder events = new TurnRecorder();
      RunningTurn turn =
          new CommandBackend()
              .start(
                  request(
                      "echo '{\"type\":\"session\",\"id\":\"early\"}';"
                          + " echo '{\"type\":\"text\",\"text\":\"before the turn\"}';"
                          + " read line;"
                          + " echo '{\"type\":\"end\",\"status\":\"completed\",\"result\":\"ok\"}'"),
                  events);

      TurnRecorder.end(turn);
      assertThat(events.events())
          .as("run %d", i)
          .containsExactly(new Started("early"), new Text("before the turn"), End.completed("ok"));
    }
  }

  @Test
  void event_receiverThatThrows_stillEndsTheTurn() throws Exception {
    RunningTurn turn =
        new CommandBackend()
            .start(
                request(
                    "read line; echo '{\"type\":\"text\",\"text\":\"a\"}';"
                        + " echo '{\"type\":\"end\",\"status\":\"completed\",\"result\":\"ok\"}'"),
                event -> {
                  throw new IllegalStateException("a faulty receiver");
                });

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("ok"));
  }

  /**
   * A program that printed many lines and its ack and end right before it exited used to have its
   * last lines dropped when the receiver lagged more than a second behind (each line is a database
   * write in a session): the turn failed, and the message it took was offered again.
   */
  @Test
  void exit_rightAfterManyLines_aLaggingReceiverStillGetsTheAckAndTheEnd() throws Exception {
    TurnRecorder recorder = new TurnRecorder();
    RunningTurn turn =
        new CommandBackend()
            .start(
                request(
                    "read line; echo '{\"type\":\"hello\",\"protocol\":2,\"capabilities\":[\"ack\"]}';"
                        + " i=0; while [ $i -lt 2500 ]; do i=$((i+1));"
                        + " echo '{\"type\":\"text\",\"text\":\"line\"}'; done;"
                        + " echo '{\"type\":\"ack\",\"id\":\"1\"}';"
                        + " echo '{\"type\":\"end\",\"status\":\"completed\",\"result\":\"ok\"}'"),
                event -> {
                  try {
                    Thread.sleep(1); // a receiver that records each event, as a session does
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  recorder.event(event);
                });

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("ok"));
    assertThat(recorder.acks())
        .containsExactly(new BackendEvent.Handshake(true), new BackendEvent.Acked("1"));
    assertThat(recorder.events()).hasSize(2501);
  }

  private TurnRequest request(String script) {
    return new TurnRequest(
        "s_1",
        List.of(new TurnRequest.Message("1", "hello")),
        null,
        null,
        dir,
        Map.of("PATH", System.getenv("PATH")),
        dir.resolve("mcp-config.json"),
        false,
        List.of("sh", "-c", script));
  }
}
