package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.cli.ToolContract.Outcome;
import dev.cortex.testing.CortexProcess;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * The session API of a real agent server ({@code /api/sessions/*} on its webhook, with its token),
 * as the tests use it, and the records its turns leave ({@code query_executions} and {@code
 * cost_query} of a {@code cortex mcp --bundles ext} on the server's home, which reads the server's
 * store as a session's MCP server does).
 */
final class SessionApi implements AutoCloseable {
  /** How long a followed turn may take: a turn with MCP calls starts two JVMs on loaded cores. */
  static final Duration FOLLOW = Duration.ofSeconds(120);

  private final AgentServer server;
  private McpSyncClient records;

  SessionApi(AgentServer server) {
    this.server = server;
  }

  /** An answer: the HTTP status and its last line ({@code result} or {@code error}). */
  record Answer(int status, JsonNode last, List<JsonNode> lines) {
    JsonNode result() {
      assertThat(last.has("result")).as("an answer with a result: %s", lines).isTrue();
      return last.path("result");
    }

    String code() {
      return last.path("error").path("code").asString("");
    }

    String message() {
      return last.path("error").path("message").asString("");
    }
  }

  /** POSTs {@code body} (JSON text) to {@code /api/sessions/ROUTE} with the token. */
  Answer raw(String route, String body, Duration limit) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.webhookPort + "/api/sessions/" + route))
            .timeout(limit)
            .header("x-cortex-token", server.token())
            .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
            .build();
    HttpResponse<String> response =
        AgentServer.HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    List<JsonNode> lines = new ArrayList<>();
    for (String line : response.body().split("\n")) {
      if (!line.isBlank()) {
        lines.add(ToolContract.JSON.readTree(line));
      }
    }
    assertThat(lines).as("the answer to %s: %s", route, response.body()).isNotEmpty();
    return new Answer(response.statusCode(), lines.get(lines.size() - 1), lines);
  }

  Answer call(String route, Map<String, ?> body) throws Exception {
    return raw(route, ToolContract.JSON.writeValueAsString(body), Duration.ofSeconds(30));
  }

  /** Creates a session of the {@code command} backend running {@code program} in {@code dir}. */
  JsonNode create(List<String> program, java.nio.file.Path dir, Map<String, Object> more)
      throws Exception {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("backend", "command");
    body.put("program", program);
    body.put("working_dir", dir.toString());
    body.putAll(more);
    Answer answer = call("create", body);
    assertThat(answer.status()).as("%s", answer.lines()).isEqualTo(200);
    return answer.result();
  }

  /** Sends without following: what became of the message. */
  JsonNode send(String session, String text) throws Exception {
    Answer answer = call("send", Map.of("session", session, "text", text));
    assertThat(answer.status()).as("%s", answer.lines()).isEqualTo(200);
    return answer.result();
  }

  /** Sends and follows the turn that takes the message: every line, the end last. */
  Answer follow(String session, String text) throws Exception {
    return raw(
        "send",
        ToolContract.JSON.writeValueAsString(
            Map.of("session", session, "text", text, "follow", true)),
        FOLLOW);
  }

  JsonNode show(String session) throws Exception {
    return call("show", Map.of("session", session)).result();
  }

  /** The whole transcript (up to 500 entries). */
  List<JsonNode> transcript(String session) throws Exception {
    List<JsonNode> entries = new ArrayList<>();
    call("transcript", Map.of("session", session, "limit", 500))
        .result()
        .path("entries")
        .forEach(entries::add);
    return entries;
  }

  /** Waits until the session has no turn running and nothing waiting to start one. */
  void awaitIdle(String session) {
    AgentServer.await(
        () -> {
          try {
            JsonNode shown = show(session);
            return shown.path("state").asString().equals("idle")
                && shown.path("running_execution").isNull();
          } catch (Exception e) {
            return false;
          }
        },
        session + " idle");
  }

  /** Waits until an entry of the session's transcript matches, and returns it. */
  JsonNode awaitEntry(String session, Predicate<JsonNode> match, String what) {
    JsonNode[] found = new JsonNode[1];
    AgentServer.await(
        () -> {
          try {
            found[0] = transcript(session).stream().filter(match).findFirst().orElse(null);
            return found[0] != null;
          } catch (Exception e) {
            return false;
          }
        },
        what + " in the transcript of " + session);
    return found[0];
  }

  /** A condition that may fail to be read; a failure counts as not yet. */
  @FunctionalInterface
  interface Check {
    boolean holds() throws Exception;
  }

  /** Waits until {@code check} holds, failing after {@code limit}. */
  static void await(Check check, Duration limit, String what) {
    long deadline = System.nanoTime() + limit.toNanos();
    long pause = 10;
    while (!holdsQuietly(check)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
      pause = Math.min(500, pause * 2);
    }
  }

  private static boolean holdsQuietly(Check check) {
    try {
      return check.holds();
    } catch (Exception | AssertionError e) {
      return false;
    }
  }

  static Predicate<JsonNode> said(String text) {
    return e ->
        e.path("kind").asString().equals("assistant")
            && e.path("body").path("text").asString().equals(text);
  }

  static List<String> kinds(List<JsonNode> entries) {
    return entries.stream().map(e -> e.path("kind").asString()).toList();
  }

  /** The texts of the user messages of a transcript, oldest first. */
  static List<String> userTexts(List<JsonNode> entries) {
    return entries.stream()
        .filter(e -> e.path("kind").asString().equals("user"))
        .map(e -> e.path("body").path("text").asString())
        .toList();
  }

  /** The MCP client that reads the server's records; started on first use. */
  McpSyncClient records() {
    if (records == null) {
      List<String> command = CortexProcess.command("mcp", "--bundles", "ext");
      records =
          McpClients.connect(
              new StdioClientTransport(
                  ServerParameters.builder(command.get(0))
                      .args(command.subList(1, command.size()))
                      .env(CortexProcess.env(server.home))
                      .build(),
                  McpClients.MAPPER));
    }
    return records;
  }

  /** Calls a tool of the {@code ext} group on the server's store, as a session's agent would. */
  Outcome tool(String name, Map<String, Object> arguments) {
    return McpClients.call(records(), name, arguments);
  }

  /** One execution record, by id. */
  JsonNode execution(String id) {
    Outcome outcome =
        McpClients.call(records(), "query_executions", Map.of("execution_id", id, "limit", 1));
    assertThat(outcome.isError()).as(outcome.text()).isFalse();
    return outcome.structured().path("executions").get(0);
  }

  /** The execution records of a session, newest first. */
  List<JsonNode> executionsOf(String sessionId) {
    Outcome outcome =
        McpClients.call(records(), "query_executions", Map.of("status", "all", "limit", 100));
    assertThat(outcome.isError()).as(outcome.text()).isFalse();
    List<JsonNode> found = new ArrayList<>();
    outcome
        .structured()
        .path("executions")
        .forEach(
            e -> {
              if (e.path("session_id").asString().equals(sessionId)) {
                found.add(e);
              }
            });
    return found;
  }

  /** What {@code cost_query} says for {@code project} (all projects when null). */
  JsonNode costs(String project) {
    Outcome outcome =
        McpClients.call(
            records(), "cost_query", project == null ? Map.of() : Map.of("projectId", project));
    assertThat(outcome.isError()).as(outcome.text()).isFalse();
    return outcome.structured();
  }

  @Override
  public void close() {
    if (records != null) {
      records.closeGracefully();
      records = null;
    }
  }
}
