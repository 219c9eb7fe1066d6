package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.awaitEnded;
import static dev.cortex.e2e.sessions.SessionServer.drain;
import static dev.cortex.testing.SessionApi.said;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.SessionApi;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Stopping a running turn, by {@code cortex sessions stop}, the API and {@code /stop} in a chat:
 * the turn's whole process group ends, its execution is cancelled, and the session goes on.
 */
class StopIT extends OnOneServer {
  @Test
  void stop_byTheCli_endsTheProcessGroup_cancelsTheExecution_andTheSessionGoesOn()
      throws Exception {
    String id =
        api.create(AgentPrograms.run(programs.stubborn), work, Map.of("name", "stop-by-cli"))
            .path("id")
            .asString();
    String execution = api.send(id, "work on it").path("execution_id").asString();
    api.awaitEntry(id, said("working"), "the turn working");
    long[] pids = programs.pids(id);
    assertThat(AgentPrograms.alive(pids[1])).isTrue();

    CliRun stopped = CliRun.run(server, "", "sessions", "stop", "stop-by-cli");

    assertThat(stopped.exitCode()).as(stopped.stderr()).isZero();
    assertThat(stopped.stderr()).contains("the turn was stopped");
    awaitEnded(pids);
    JsonNode record = api.execution(execution);
    assertThat(record.path("status").asString()).isEqualTo("cancelled");
    assertThat(record.path("error").asString())
        .isEqualTo("The turn was stopped: asked by the person.");
    List<JsonNode> transcript = api.transcript(id);
    JsonNode last = transcript.get(transcript.size() - 1);
    assertThat(last.path("kind").asString()).isEqualTo("system");
    assertThat(last.path("body").path("text").asString())
        .isEqualTo(record.path("error").asString());
    CliRun again = CliRun.run(server, "", "sessions", "stop", "stop-by-cli");
    assertThat(again.exitCode()).isEqualTo(1);
    assertThat(again.stderr()).contains("no turn was running");
    assertThat(api.follow(id, "quick one").result().path("status").asString())
        .isEqualTo("completed");
  }

  @Test
  void stop_byTheApi_aProgramThatIgnoresTerm_isKilledWithItsChild() throws Exception {
    String id =
        api.create(AgentPrograms.run(programs.stubborn), work, Map.of("name", "stop-by-api"))
            .path("id")
            .asString();
    String execution = api.send(id, "ignore-term and work").path("execution_id").asString();
    api.awaitEntry(id, said("working"), "the turn working");
    long[] pids = programs.pids(id);

    SessionApi.Answer stopped = api.call("stop", Map.of("session", id));

    assertThat(stopped.result().path("stopped").asBoolean()).isTrue();
    awaitEnded(pids);
    assertThat(api.execution(execution).path("status").asString()).isEqualTo("cancelled");
    assertThat(api.call("stop", Map.of("session", id)).result().path("stopped").asBoolean())
        .isFalse();
    assertThat(api.follow(id, "quick one").result().path("status").asString())
        .isEqualTo("completed");
  }

  @Test
  void chat_slashStopTypedDuringATurn_stopsIt_andTheChatGoesOn() throws Exception {
    String id =
        api.create(AgentPrograms.run(programs.stubborn), work, Map.of("name", "chat-stop"))
            .path("id")
            .asString();
    Process chat = CortexProcess.start(server.env, "chat", "chat-stop");
    CompletableFuture<String> out =
        CompletableFuture.supplyAsync(() -> drain(chat.getInputStream()));
    CompletableFuture<String> err =
        CompletableFuture.supplyAsync(() -> drain(chat.getErrorStream()));
    try (Writer typed = new OutputStreamWriter(chat.getOutputStream(), StandardCharsets.UTF_8)) {
      typed.write("work on it\n");
      typed.flush();
      api.awaitEntry(id, said("working"), "the turn working");
      long[] pids = programs.pids(id);

      typed.write("/stop\n");
      typed.flush();

      awaitEnded(pids);
      typed.write("quick one\n/quit\n");
    }
    assertThat(chat.waitFor(90, TimeUnit.SECONDS)).isTrue();
    assertThat(chat.exitValue()).as(err.get()).isZero();
    assertThat(err.get())
        .contains("cortex: the turn was stopped")
        .contains("cortex: the turn ended cancelled: The turn was stopped: asked by the person.");
    assertThat(out.get()).isEqualTo("working\n[The turn was stopped: asked by the person.]\n");
    List<JsonNode> executions = api.executionsOf(id);
    assertThat(executions)
        .extracting(e -> e.path("status").asString())
        .containsExactly("completed", "cancelled");
    assertThat(SessionApi.userTexts(api.transcript(id))).containsExactly("work on it", "quick one");
  }
}
