package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.http.HttpHost;
import dev.cortex.models.ModelPrices;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.server.sessions.AllowlistCheck;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.SessionEnvironment;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.SessionSettings;
import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.backend.CommandBackend;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.storage.Database;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.IntNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * The session API over real loopback HTTP, on sessions whose turns a small shell program runs: the
 * exact JSON of its answers and event lines (fields in order, nulls written), and the sentence each
 * bad body gets.
 */
class SessionRoutesTest {
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path dir;
  Database database;
  SessionService sessions;
  HttpHost host;
  Path work;
  Path program;

  @BeforeEach
  void start() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    work = Files.createDirectories(dir.resolve("work"));
    program = work.resolve("agent.sh");
    Files.writeString(
        program,
        """
        #!/bin/sh
        read -r line
        echo '{"type":"text","text":"hello"}'
        echo '{"type":"tool_use","id":"t1","name":"clock","input":{"n":1.0}}'
        echo '{"type":"end","status":"completed","result":"hello"}'
        """);
    assertThat(program.toFile().setExecutable(true)).isTrue();
    Clock clock = Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC);
    database = new Database(home, List.of(SessionsSchema.area()), Clock.systemUTC());
    Map<String, Backend> backends = Map.of(CommandBackend.NAME, new CommandBackend());
    sessions =
        new SessionService(
            new SessionStore(() -> database, clock),
            new Executions(() -> database, clock),
            new Costs(() -> database, clock),
            backends,
            new SessionEnvironment(
                new CortexHome(home, home.resolve("data")),
                Map.of("PATH", System.getenv("PATH")),
                "token",
                () -> 3001),
            () -> Budgets.NONE,
            new SessionSettings("command", null, Duration.ofMinutes(1)),
            ModelPrices.shipped(),
            clock,
            AllowlistCheck.NONE);
    HttpHost.Builder builder =
        HttpHost.builder("session-routes-test").connector("api", "127.0.0.1", 0, null);
    new SessionRoutes(sessions, "test", Duration.ofMinutes(2))
        .handlers()
        .forEach((route, handler) -> builder.route("api", route, handler));
    host = builder.start();
  }

  @AfterEach
  void stop() {
    host.close();
    sessions.close();
    database.close();
  }

  record Answer(int status, String body) {}

  Answer post(String route, String body) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + host.port("api") + route))
                .timeout(Duration.ofSeconds(60))
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new Answer(
        response.statusCode(),
        response
            .body()
            .replaceAll("ses-[0-9a-f]{16}", "SES")
            .replaceAll("ex-[0-9A-Za-z-]+", "EXE")
            .replace(work.toString(), "WORK"));
  }

  String create(String name) throws Exception {
    return post(
            Sessions.CREATE,
            "{\"name\":\""
                + name
                + "\",\"backend\":\"command\",\"program\":[\""
                + program
                + "\"],\"working_dir\":\""
                + work
                + "\"}")
        .body();
  }

  static final String A1 =
      "{\"id\":\"SES\",\"name\":\"a1\",\"channel\":\"cli:a1\",\"project\":null,"
          + "\"backend\":\"command\",\"model\":null,\"provider\":null,\"thinking\":null,\"mode\":\"default\",\"composition\":\"direct\","
          + "\"started_by\":\"person\",\"tool_allowlist\":null,\"working_dir\":\"WORK\","
          + "\"state\":\"idle\",\"running_execution\":null,"
          + "\"waiting_for\":null,\"planning\":false,\"created_at\":\"2026-12-01T10:00:00Z\","
          + "\"updated_at\":\"2026-12-01T10:00:00Z\"}";

  @Test
  void createShowAndList_answerTheSessionWithEveryField_nullsIncluded() throws Exception {
    assertThat(create("a1")).isEqualTo("{\"result\":" + A1 + "}\n");

    assertThat(post(Sessions.SHOW, "{\"session\":\"a1\"}"))
        .isEqualTo(new Answer(200, "{\"result\":" + A1 + "}\n"));
    assertThat(post(Sessions.LIST, "")).isEqualTo(post(Sessions.LIST, "{\"limit\":50}"));
    assertThat(post(Sessions.LIST, "{}").body())
        .isEqualTo("{\"result\":{\"sessions\":[" + A1 + "]}}\n");
    assertThat(post(Sessions.STOP, "{\"session\":\"a1\"}").body())
        .isEqualTo("{\"result\":{\"stopped\":false}}\n");
  }

  @Test
  void send_followed_streamsTheDeliveryTheTurnsEntriesAndItsEnd() throws Exception {
    create("a1");

    Answer followed =
        post(
            Sessions.SEND,
            "{\"session\":\"a1\",\"text\":\"hi\",\"follow\":true,\"progress_seconds\":0}");

    String at = "\"at\":\"2026-12-01T10:00:00Z\"";
    assertThat(followed.status()).isEqualTo(200);
    assertThat(followed.body().lines())
        .containsExactly(
            "{\"event\":\"delivery\",\"delivery\":{\"status\":\"started\",\"execution_id\":\"EXE\","
                + "\"inbox_seq\":1}}",
            "{\"event\":\"entry\",\"entry\":{\"seq\":1,\"execution_id\":\"EXE\",\"kind\":\"user\","
                + "\"body\":{\"text\":\"hi\",\"source\":\"person\"},"
                + at
                + "}}",
            "{\"event\":\"entry\",\"entry\":{\"seq\":2,\"execution_id\":\"EXE\","
                + "\"kind\":\"assistant\",\"body\":{\"text\":\"hello\"},"
                + at
                + "}}",
            "{\"event\":\"entry\",\"entry\":{\"seq\":3,\"execution_id\":\"EXE\","
                + "\"kind\":\"tool_use\",\"body\":{\"id\":\"t1\",\"name\":\"clock\","
                + "\"input\":{\"n\":1.0}},"
                + at
                + "}}",
            "{\"result\":{\"execution_id\":\"EXE\",\"status\":\"completed\",\"error\":null}}");
    assertThat(post(Sessions.TRANSCRIPT, "{\"session\":\"a1\",\"after\":2}").body())
        .isEqualTo(
            "{\"result\":{\"entries\":[{\"seq\":3,\"execution_id\":\"EXE\",\"kind\":\"tool_use\","
                + "\"body\":{\"id\":\"t1\",\"name\":\"clock\",\"input\":{\"n\":1.0}},"
                + at
                + "}]}}\n");
  }

  /** A JSON value with its strings and numbers blanked: its fields, their order, its nulls. */
  static JsonNode shape(JsonNode node) {
    if (node.isObject()) {
      ObjectNode shaped = WireJson.mapper().createObjectNode();
      node.properties().forEach(field -> shaped.set(field.getKey(), shape(field.getValue())));
      return shaped;
    }
    if (node.isArray()) {
      ArrayNode shaped = WireJson.mapper().createArrayNode();
      node.forEach(item -> shaped.add(shape(item)));
      return shaped;
    }
    return node.isString() ? StringNode.valueOf("") : node.isNumber() ? IntNode.valueOf(0) : node;
  }

  @Test
  void docs_theSessionApisExample_isWhatAFollowedSendStreams() throws Exception {
    String doc = Files.readString(Path.of("../../docs/agent-server.md"));
    int section = doc.indexOf("### The session API");
    int start = doc.indexOf("```\n", section) + "```\n".length();
    List<String> example = doc.substring(start, doc.indexOf("```", start)).lines().skip(1).toList();
    Files.writeString(
        program,
        """
        #!/bin/sh
        read -r line
        echo '{"type":"text","text":"it is noon"}'
        echo '{"type":"end","status":"completed","result":"it is noon"}'
        """);
    create("scripted");

    List<String> streamed =
        post(
                Sessions.SEND,
                "{\"session\":\"scripted\",\"text\":\"what time is it?\",\"follow\":true}")
            .body()
            .lines()
            .toList();

    assertThat(streamed.stream().map(line -> shape(WireJson.mapper().readTree(line))).toList())
        .isEqualTo(example.stream().map(line -> shape(WireJson.mapper().readTree(line))).toList());
  }

  @Test
  void badBodies_areAnsweredWithTheRuleTheyBreak_orHowToAsk() throws Exception {
    create("a1");
    List<List<String>> bad =
        List.of(
            List.of(Sessions.LIST, "{\"limit\":\"many\"}", "Send {\"limit\"?: 1 to 200}."),
            List.of(Sessions.LIST, "{\"limit\":0}", "limit must be 1 to 200."),
            List.of(Sessions.SHOW, "{}", "Send {\"session\": ID or NAME}."),
            List.of(Sessions.STOP, "\"text\"", "Send {\"session\": ID or NAME}."),
            List.of(
                Sessions.TRANSCRIPT,
                "{\"limit\":0}",
                "Send {\"session\": ID or NAME, \"after\"?: SEQ or \"before\"?: SEQ, \"limit\"?: N}."),
            List.of(
                Sessions.TRANSCRIPT,
                "{\"session\":\"a1\",\"after\":-1}",
                "limit must be 1 to 500 and after 0 or more."),
            List.of(
                Sessions.SEND,
                "{\"session\":\"a1\"}",
                "Send {\"session\": ID or NAME, \"text\": MESSAGE, \"follow\"?: true,"
                    + " \"progress_seconds\"?: 0-600}."),
            List.of(
                Sessions.SEND,
                "{\"session\":\"a1\",\"text\":\"x\",\"progress_seconds\":601}",
                "progress_seconds must be from 0 (no progress lines) to 600, not 601."),
            List.of(Sessions.SEND, "{\"session\":\"a1\",\"text\":\" \"}", "The message is empty."),
            List.of(Sessions.CREATE, "{nope", "The body is not a session to create."),
            List.of(Sessions.CREATE, "", "The body is not a session to create."),
            List.of(
                Sessions.CREATE,
                "{\"composition\":\"partial\"}",
                "composition is direct or none; started_by is person, agent, schedule or"
                    + " callback."),
            List.of(
                Sessions.CREATE,
                "{\"backend\":\"command\",\"program\":[\"x\"],\"working_dir\":\"a\\u0000b\"}",
                "The working directory a\u0000b is not an existing absolute directory."));
    for (List<String> request : bad) {
      assertThat(post(request.get(0), request.get(1)))
          .as("%s", request)
          .isEqualTo(
              new Answer(
                  400,
                  "{\"error\":{\"code\":\"INVALID_ARGUMENT\",\"message\":"
                      + dev.cortex.base.Json.write(request.get(2))
                      + "}}\n"));
    }
    assertThat(
            post(
                Sessions.CREATE,
                "{\"channel\":\"slack:C0123\",\"program\":[\"x\"],\"working_dir\":\""
                    + work
                    + "\"}"))
        .isEqualTo(
            new Answer(
                403,
                "{\"error\":{\"code\":\"RESERVED_CHANNEL\",\"message\":\"Channel slack:C0123 is"
                    + " reserved for the Slack front door, which this agent server does not have; a"
                    + " session of cortex sessions or cortex chat is on cli:NAME (the default).\"}}\n"));
    assertThat(post(Sessions.SEND, "{\"session\":\"nobody\",\"text\":\"x\"}"))
        .isEqualTo(
            new Answer(
                404,
                "{\"error\":{\"code\":\"NOT_FOUND\",\"message\":\"No session 'nobody'.\"}}\n"));
  }

  /**
   * Unknown fields used to be ignored: {"bakend": "command"} created a session of the default
   * backend. Every body of the session API is read strictly.
   */
  @Test
  void unknownFields_onEveryRoute_areRefusedNamingTheField_andNothingIsWritten() throws Exception {
    create("a1");
    List<List<String>> misspelt =
        List.of(
            List.of(
                Sessions.CREATE,
                "{\"name\":\"b1\",\"bakend\":\"command\",\"program\":[\"x\"]}",
                "bakend"),
            List.of(Sessions.LIST, "{\"limt\":5}", "limt"),
            List.of(Sessions.SHOW, "{\"session\":\"a1\",\"later\":true}", "later"),
            List.of(Sessions.STOP, "{\"session\":\"a1\",\"force\":true}", "force"),
            List.of(Sessions.TRANSCRIPT, "{\"session\":\"a1\",\"from\":2}", "from"),
            List.of(Sessions.SEND, "{\"session\":\"a1\",\"text\":\"x\",\"folow\":true}", "folow"));
    for (List<String> request : misspelt) {
      Answer answer = post(request.get(0), request.get(1));
      assertThat(answer.status()).as("%s", request).isEqualTo(400);
      JsonNode error = WireJson.mapper().readTree(answer.body()).path("error");
      assertThat(error.path("code").asString()).as("%s", request).isEqualTo("INVALID_ARGUMENT");
      assertThat(error.path("message").asString())
          .as("%s", request)
          .startsWith("The request has an unknown field '" + request.get(2) + "'");
    }
    assertThat(post(Sessions.CREATE, "{\"bakend\":\"command\"}").body())
        .isEqualTo(
            "{\"error\":{\"code\":\"INVALID_ARGUMENT\",\"message\":\"The request has an unknown"
                + " field 'bakend'; its fields are backend, channel, composition, mode, model, name,"
                + " program, project, started_by, thinking, tool_allowlist, working_dir.\"}}\n");
    assertThat(sessions.list(10)).extracting(s -> s.name()).containsExactly("a1");
    assertThat(sessions.transcript("a1", 0, 10)).isEmpty();
  }
}
