package dev.cortex.e2e.waitpoints;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.McpClients;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import io.modelcontextprotocol.client.McpSyncClient;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * A server of its own for the tests of a wake's delivery, whose sessions run the scripted agent
 * that keeps what it takes ({@link AgentPrograms#logged}): waitpoints made through the session's
 * own {@code ext} tools, signals by HTTP, and the wakes counted where the agent took them and in
 * the transcript.
 */
final class WakeServer implements AutoCloseable {
  final AgentServer server;
  final SessionApi api;
  final AgentPrograms programs;
  private final Path home;
  private final Map<String, McpSyncClient> clients = new HashMap<>();

  /**
   * @param settings the server's {@code [waitpoints]} table
   */
  WakeServer(Path home, Path work, String settings) throws IOException {
    this.home = home;
    Files.createDirectories(home.resolve("config"));
    Files.writeString(home.resolve("config/cortex.toml"), settings);
    this.programs = AgentPrograms.write(work);
    this.server = new AgentServer(home, Map.of()).start();
    this.api = new SessionApi(server);
  }

  /** A session of the logging scripted agent. */
  String session(String name) throws Exception {
    return api.create(AgentPrograms.run(programs.logged), programs.dir, Map.of("name", name))
        .path("id")
        .asString();
  }

  /** Creates a waitpoint with the session's own {@code wait_create}; its answer. */
  JsonNode waitpoint(String sessionId, Map<String, Object> arguments) {
    McpSyncClient client = clients.computeIfAbsent(sessionId, this::tools);
    Outcome created = McpClients.call(client, "wait_create", arguments);
    assertThat(created.isError()).as(created.text()).isFalse();
    return created.structured();
  }

  /** The {@code ext} tools as the session's MCP server serves them. */
  private McpSyncClient tools(String sessionId) {
    return SessionApi.extTools(home, sessionId);
  }

  /** Signals a waitpoint by HTTP, as {@code member} (or none); the answer. */
  HttpResponse<String> signal(JsonNode waitpoint, String member, String message) throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", waitpoint.path("waitpoint").path("id").asString());
    body.put("secret", waitpoint.path("secret").asString());
    body.put("status", "ok");
    body.put("message", message);
    if (member != null) {
      body.put("member", member);
    }
    return server.post("/webhook/signal", TestJson.JSON.writeValueAsString(body), Map.of());
  }

  /** The wakes of a session's transcript, oldest first. */
  List<String> wakes(String sessionId) throws Exception {
    return api.transcriptAll(sessionId).stream()
        .filter(
            e ->
                e.path("kind").asString().equals("user")
                    && e.path("body").path("source").asString().equals("waitpoint"))
        .map(e -> e.path("body").path("text").asString())
        .toList();
  }

  /** The turn whose transcript has the wake that carries {@code mark}. */
  String wakeExecution(String sessionId, String mark) throws Exception {
    return api.transcriptAll(sessionId).stream()
        .filter(
            e ->
                e.path("kind").asString().equals("user")
                    && e.path("body").path("text").asString().contains(mark))
        .map(e -> e.path("execution_id").asString())
        .findFirst()
        .orElseThrow();
  }

  /**
   * Waits until {@code count} wakes are in the session's transcript and it is idle, then checks
   * that each of them reached the agent once and is in the transcript once, and that each of {@code
   * marks} is in exactly one wake.
   */
  void awaitWakesOnce(String sessionId, List<String> marks) throws Exception {
    Eventually.until(
        marks.size() + " wakes of " + sessionId,
        AgentServer.LIMIT,
        () -> {
          try {
            return wakes(sessionId).size() >= marks.size();
          } catch (Exception e) {
            return false;
          }
        });
    api.awaitIdle(sessionId);
    List<String> wakes = wakes(sessionId);
    List<String> taken = programs.taken(sessionId);
    assertThat(wakes).as("the wakes in the transcript").hasSize(marks.size());
    for (String mark : marks) {
      assertThat(wakes.stream().filter(w -> w.contains(mark)).count())
          .as("the wake of %s is in the transcript once: %s", mark, wakes)
          .isEqualTo(1);
      assertThat(taken.stream().filter(t -> t.contains(mark)).count())
          .as("the wake of %s reached the agent once", mark)
          .isEqualTo(1);
    }
  }

  /** Kills the server (SIGKILL) and starts it again on the same home. */
  void killAndRestart() throws IOException, InterruptedException {
    server.process.destroyForcibly().waitFor();
    server.start();
  }

  @Override
  public void close() {
    clients.values().forEach(McpSyncClient::closeGracefully);
    api.close();
    server.close();
  }
}
