package dev.cortex.e2e.waitpoints;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * A waitpoint's secret, and the webhook token, as a session's agent meets them: the agent's {@code
 * wait_create} answer carries the secret and its recipe once, and the server keeps nothing of it
 * but its SHA-256, in no table, log line or answer of its API. The agent is the scripted one of the
 * test fixtures, calling the tools of its session's real MCP server; what it got is copied to a
 * file on its side, which is where the test learns the secret.
 */
class WaitSecretsIT {
  @TempDir static Path home;
  @TempDir static Path work;

  static AgentServer server;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    server = new AgentServer(home, Map.of()).start();
    api = new SessionApi(server);
  }

  @AfterAll
  static void stop() {
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
  }

  /** The scripted agent, its protocol lines copied to {@code heard} as they go to the server. */
  static List<String> teeing(Path heard) {
    String agent =
        ScriptedAgent.command().stream()
            .map(word -> "'" + word.replace("'", "'\\''") + "'")
            .collect(Collectors.joining(" "));
    return List.of("sh", "-c", agent + " | tee -a '" + heard + "'");
  }

  /**
   * Regression: every waitpoint secret was in the tool-result rows of session_transcript and in
   * {@code /api/sessions/transcript}, though only its SHA-256 is said to be kept.
   */
  @Test
  void waitCreate_inASession_theSecretReachesTheAgentOnce_andIsKeptOrShownNowhere()
      throws Exception {
    Path heard = work.resolve("heard.jsonl");
    String id = api.create(teeing(heard), work, Map.of("name", "trainer")).path("id").asString();
    String token = server.token();
    Map<String, Object> script = new LinkedHashMap<>();
    script.put(
        "calls",
        List.of(
            Map.of(
                "tool",
                "wait_create",
                "arguments",
                Map.of("label", "train v3", "intent", "read the metrics"))));
    script.put("say", "waiting for the training");

    SessionApi.Answer followed = api.follow(id, TestJson.JSON.writeValueAsString(script));

    assertThat(followed.result().path("status").asString()).isEqualTo("completed");
    JsonNode created = createdAsTheAgentGotIt(heard);
    String waitpoint = created.path("waitpoint").path("id").asString();
    String secret = created.path("secret").asString();
    assertThat(secret).matches("wps_[A-Za-z0-9_-]{43}");
    assertThat(created.path("recipe").path("command").asString()).contains("--secret " + secret);
    assertThat(created.path("recipe").path("env").path("CORTEX_WAIT_SECRET").asString())
        .isEqualTo(secret);

    List<JsonNode> transcript = api.transcript(id);
    JsonNode recorded =
        transcript.stream()
            .filter(e -> e.path("kind").asString().equals("tool_result"))
            .findFirst()
            .orElseThrow();
    String content = recorded.path("body").path("content").asString();
    assertThat(content).contains(waitpoint).contains("[redacted]").doesNotContain(secret);
    JsonNode recipe = TestJson.JSON.readTree(content).path("recipe");
    assertThat(recipe.path("command").asString())
        .contains("signal " + waitpoint + " --secret [redacted]");

    Map<String, String> shown = new LinkedHashMap<>();
    shown.put("the followed turn", followed.lines().toString());
    shown.put("the transcript", transcript.toString());
    shown.put("sessions show", api.show(id).toString());
    shown.put("sessions list", api.call("list", Map.of()).last().toString());
    shown.put("health", health());
    shown.put("wait check", waitCheck(id, token));
    shown.put("the server's log", server.stderr.toString());
    shown.putAll(everyTable());
    shown.putAll(databaseFiles());
    for (Map.Entry<String, String> place : shown.entrySet()) {
      assertThat(place.getValue()).as(place.getKey()).doesNotContain(secret).doesNotContain(token);
    }
    assertThat(shown.get("wait check")).contains(waitpoint);

    // The agent's secret is the waitpoint's: its recipe works.
    CortexProcess.Finished signalled =
        CortexProcess.run(CortexProcess.env(home), "signal", waitpoint, "--secret", secret);
    assertThat(signalled.exitCode()).as(signalled.stderr()).isZero();
    assertThat(signalled.stdout()).startsWith("accepted:");
  }

  /**
   * An agent whose shell tool printed its environment: the webhook token, which every session's
   * environment carries, is kept out of the transcript and what shows it.
   */
  @Test
  void aToolResultCarryingTheWebhookToken_isRecordedWithoutIt() throws Exception {
    Path agent = work.resolve("env-agent.sh");
    Files.writeString(
        agent,
        """
        #!/bin/sh
        read -r line
        echo '{"type":"tool_use","id":"t-1","name":"Bash","input":{"command":"env"}}'
        printf '{"type":"tool_result","tool_use_id":"t-1","content":"CORTEX_WEBHOOK_TOKEN=%s","is_error":false}\n' "$CORTEX_WEBHOOK_TOKEN"
        echo '{"type":"end","status":"completed","result":"looked"}'
        """);
    agent.toFile().setExecutable(true);
    String id = api.create(List.of(agent.toString()), work, Map.of()).path("id").asString();
    String token = server.token();

    SessionApi.Answer followed = api.follow(id, "what is in your environment?");

    assertThat(followed.result().path("status").asString()).isEqualTo("completed");
    List<JsonNode> transcript = api.transcript(id);
    assertThat(transcript.toString()).contains("CORTEX_WEBHOOK_TOKEN=[redacted]");
    Map<String, String> shown = new LinkedHashMap<>();
    shown.put("the followed turn", followed.lines().toString());
    shown.put("the transcript", transcript.toString());
    shown.put("the server's log", server.stderr.toString());
    shown.putAll(everyTable());
    shown.putAll(databaseFiles());
    for (Map.Entry<String, String> place : shown.entrySet()) {
      assertThat(place.getValue()).as(place.getKey()).doesNotContain(token);
    }
  }

  /**
   * An agent that ends its turns with the webhook token of its environment, in its result and in
   * its error: the ends are recorded, streamed and shown without it.
   */
  @Test
  void aTurnEndingWithTheWebhookToken_isRecordedShownAndStreamedWithoutIt() throws Exception {
    Path agent = work.resolve("ending-agent.sh");
    Files.writeString(
        agent,
        """
        #!/bin/sh
        read -r line
        case "$line" in
          *fail*) printf '{"type":"end","status":"failed","error":"no luck with %s"}\n' "$CORTEX_WEBHOOK_TOKEN" ;;
          *) printf '{"type":"end","status":"completed","result":"the token is %s"}\n' "$CORTEX_WEBHOOK_TOKEN" ;;
        esac
        """);
    agent.toFile().setExecutable(true);
    String id = api.create(List.of(agent.toString()), work, Map.of()).path("id").asString();
    String token = server.token();

    SessionApi.Answer said = api.follow(id, "what is the token?");
    SessionApi.Answer failed = api.follow(id, "fail, please");

    assertThat(said.result().path("status").asString()).isEqualTo("completed");
    assertThat(failed.result().path("status").asString()).isEqualTo("failed");
    List<JsonNode> executions = api.executionsOf(id);
    assertThat(executions.toString()).contains("the token is [redacted]");
    assertThat(executions.toString()).contains("no luck with [redacted]");
    Map<String, String> shown = new LinkedHashMap<>();
    shown.put("the completed turn", said.lines().toString());
    shown.put("the failed turn", failed.lines().toString());
    shown.put("the transcript", api.transcript(id).toString());
    shown.put("sessions show", api.show(id).toString());
    shown.put("the executions", executions.toString());
    shown.put("the server's log", server.stderr.toString());
    shown.putAll(everyTable());
    shown.putAll(databaseFiles());
    for (Map.Entry<String, String> place : shown.entrySet()) {
      assertThat(place.getValue()).as(place.getKey()).doesNotContain(token);
    }
  }

  /** The wait_create answer in the lines the agent sent on, as it got it from its MCP server. */
  static JsonNode createdAsTheAgentGotIt(Path heard) throws Exception {
    // tee writes each line to the server before the file: the turn can end before the file has
    // its last lines.
    dev.cortex.testing.Eventually.until(
        "the agent's lines in " + heard,
        () -> Files.readString(heard).contains("\"type\":\"end\""));
    for (String line : Files.readAllLines(heard)) {
      JsonNode event = TestJson.JSON.readTree(line);
      if (event.path("type").asString().equals("tool_result")
          && event.path("tool_use_id").asString().equals("call-1")) {
        assertThat(event.path("is_error").asBoolean()).as(line).isFalse();
        return TestJson.JSON.readTree(event.path("content").asString());
      }
    }
    throw new AssertionError("the agent got no wait_create answer: " + Files.readString(heard));
  }

  static String health() throws Exception {
    return AgentServer.HTTP
        .send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.webhookPort + "/health"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  static String waitCheck(String sessionId, String token) throws Exception {
    HttpResponse<String> checked =
        server.post(
            "/webhook/wait/check",
            TestJson.JSON.writeValueAsString(Map.of("session_id", sessionId)),
            Map.of("x-cortex-token", token));
    assertThat(checked.statusCode()).as(checked.body()).isEqualTo(200);
    return checked.body();
  }

  /** Every row of every table of the server's database, as text, by table. */
  static Map<String, String> everyTable() throws Exception {
    Map<String, String> tables = new LinkedHashMap<>();
    try (Connection c =
            DriverManager.getConnection("jdbc:sqlite:" + home.resolve("data/cortex.sqlite3"));
        Statement statement = c.createStatement()) {
      List<String> names = new ArrayList<>();
      try (ResultSet rows =
          statement.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
        while (rows.next()) {
          names.add(rows.getString(1));
        }
      }
      assertThat(names).contains("session_transcript", "waitpoints");
      for (String name : names) {
        StringBuilder text = new StringBuilder();
        try (ResultSet rows = statement.executeQuery("SELECT * FROM \"" + name + "\"")) {
          int columns = rows.getMetaData().getColumnCount();
          while (rows.next()) {
            for (int i = 1; i <= columns; i++) {
              text.append(rows.getString(i)).append('\t');
            }
            text.append('\n');
          }
        }
        tables.put("table " + name, text.toString());
      }
    }
    return tables;
  }

  /** The database's files as bytes (freed pages and the write-ahead log included). */
  static Map<String, String> databaseFiles() throws Exception {
    Map<String, String> files = new LinkedHashMap<>();
    try (var listed = Files.list(home.resolve("data"))) {
      for (Path file :
          listed.filter(f -> f.getFileName().toString().startsWith("cortex.sqlite3")).toList()) {
        files.put(
            "file " + file.getFileName(),
            new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
      }
    }
    return files;
  }
}
