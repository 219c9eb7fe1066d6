package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.content;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.McpClients;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.TestJson;
import io.modelcontextprotocol.client.McpSyncClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Interactions past the life of one server: a question that waits while its server is killed and
 * started again is answered on the new one, and the waiting call gets the answer; and questions
 * that nobody answers expire by the TTL (shortened with the documented test setting {@code
 * CORTEX_INTERACTION_TTL_SECONDS}).
 */
class InteractionRestartIT {
  private static final Map<String, Object> QUESTION =
      Map.of(
          "question",
          "Deploy now?",
          "options",
          List.of(Map.of("label", "yes"), Map.of("label", "no")));

  @Test
  void askUser_serverRestartedWhileItWaits_theCallGetsTheAnswerGivenToTheNewServer(
      @TempDir Path home, @TempDir Path work) throws Exception {
    SessionServer first = SessionServer.start(home, work);
    String sessionId;
    McpSyncClient mcp;
    CompletableFuture<Outcome> waiting;
    String request;
    try {
      sessionId = first.scripted("waits-across", Map.of()).path("id").asString();
      // The session's own MCP server, as its agent starts it: the interaction group for the
      // session.
      mcp = McpClients.cortex(home, sessionId, "interaction");
      McpSyncClient client = mcp;
      waiting =
          CompletableFuture.supplyAsync(
              () ->
                  McpClients.call(
                      client, "cortex_ask_user", Map.of("questions", List.of(QUESTION))));
      request = InteractionIT.awaitOpen(first.server, sessionId).path("id").asString();
      first.server.process.destroyForcibly().waitFor();
    } finally {
      first.close();
    }
    AgentServer second = new AgentServer(home, Map.of()).start();
    try {
      assertThat(waiting).as("the call waits on through the restart").isNotDone();
      CliRun answered = CliRun.run(second, "", "answer", request, "yes");
      assertThat(answered.exitCode()).as(answered.stderr()).isZero();
      Outcome outcome = waiting.get(AgentServer.LIMIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(outcome.isError()).as(outcome.text()).isFalse();
      assertThat(outcome.structured().path("answers").get(0).path("selected").get(0).asString())
          .isEqualTo("yes");
      assertThat(outcome.structured().path("request_id").asString()).isEqualTo(request);
    } finally {
      mcp.closeGracefully();
      second.close();
    }
  }

  @Test
  void askUser_nobodyAnswersWithinTheTtl_blockingEndsExpired_andNotBlockingSaysNothing(
      @TempDir Path home, @TempDir Path work) throws Exception {
    try (SessionServer fixture =
        SessionServer.start(
            home, work, null, Map.of("CORTEX_INTERACTION_TTL_SECONDS", "2"), null)) {
      String id = fixture.scripted("expires", Map.of()).path("id").asString();
      fixture.api.follow(
          id,
          script(
              Map.of(
                  "calls",
                  List.of(
                      call(
                          "cortex_ask_user",
                          Map.of("questions", List.of(QUESTION), "blocking", false)),
                      call("cortex_ask_user", Map.of("questions", List.of(QUESTION)))))));
      List<JsonNode> results = ofKind(fixture.api.transcript(id), "tool_result");
      String later = content(results.get(0)).path("request_id").asString();
      JsonNode expired = results.get(1);
      assertThat(expired.path("body").path("is_error").asBoolean()).as("%s", expired).isTrue();
      assertThat(expired.path("body").path("content").asString()).contains("EXPIRED");

      Eventually.until(
          "the question that did not block expired",
          AgentServer.LIMIT,
          () -> {
            try {
              CliRun shown =
                  CliRun.run(fixture.server, "", "interactions", "show", later, "--json");
              return TestJson.JSON
                  .readTree(shown.stdout())
                  .path("state")
                  .asString()
                  .equals("expired");
            } catch (Exception e) {
              return false;
            }
          });
      CliRun tooLate = CliRun.run(fixture.server, "", "answer", later, "yes");
      assertThat(tooLate.exitCode()).isEqualTo(1);
      assertThat(tooLate.stderr()).contains("EXPIRED");
      fixture.api.awaitIdle(id);
      assertThat(ofKind(fixture.api.transcriptAll(id), "user"))
          .as("an expired question that did not block sends no message")
          .hasSize(1);
      assertThat(fixture.api.show(id).path("waiting_for").isNull()).isTrue();
    }
  }
}
