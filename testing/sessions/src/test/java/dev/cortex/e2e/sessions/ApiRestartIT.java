package dev.cortex.e2e.sessions;

import static dev.cortex.testing.SessionApi.said;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.FakeModelApi;
import dev.cortex.testing.ScriptedAnswer;
import dev.cortex.testing.SessionApi;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * An {@code api} session across a kill -9 of its server: the conversation is on disk, so the next
 * turn after the restart goes on with everything the model heard, each message once.
 */
class ApiRestartIT {
  @Test
  void killedMidModelCall_nextTurnAfterTheRestart_continuesTheSameConversation(
      @TempDir Path home, @TempDir Path work) throws Exception {
    try (FakeModelApi model = FakeModelApi.start()) {
      AgentServer server =
          new AgentServer(
                  home,
                  Map.of(
                      "CORTEX_ANTHROPIC_BASE_URL",
                      model.url(),
                      "ANTHROPIC_API_KEY",
                      "sk-ant-restart-test-0123456789abcdef"))
              .start();
      try (server;
          SessionApi api = new SessionApi(server)) {
        SessionApi.Answer created =
            api.call(
                "create",
                Map.of(
                    "name",
                    "durable",
                    "backend",
                    "api",
                    "model",
                    "claude-sonnet-4-5",
                    "composition",
                    "none",
                    "working_dir",
                    work.toString()));
        String id = created.result().path("id").asString();
        model.answers(FakeModelApi.text("Noted: 42.").usage(10, 3));
        assertThat(api.follow(id, "Remember the number 42.").result().path("status").asString())
            .isEqualTo("completed");

        ScriptedAnswer held = model.answer(FakeModelApi.reply().text("Let me").hold().text(" see"));
        assertThat(api.send(id, "Which number?").path("status").asString()).isEqualTo("started");
        assertThat(held.awaitHeld()).isTrue();

        server.process.destroyForcibly().waitFor();
        held.release();
        server.start();

        model.answers(FakeModelApi.text("It was 42.").usage(30, 4));
        api.follow(id, "Go on.");
        api.awaitEntry(id, said("It was 42."), "the answer after the restart");
        List<FakeModelApi.Request> asked = model.requests();
        JsonNode last = asked.get(asked.size() - 1).body().path("messages");
        String history = last.toString();
        assertThat(history).contains("Remember the number 42.").contains("Noted: 42.");
        assertThat(history.split("Which number\\?", -1)).as("asked once").hasSize(2);
        assertThat(history).contains("Go on.");
        assertThat(api.executionsOf(id))
            .extracting(e -> e.path("status").asString())
            .containsExactly("completed", "stale", "completed");
      }
    }
  }
}
