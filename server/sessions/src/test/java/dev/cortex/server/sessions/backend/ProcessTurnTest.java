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
