package dev.cortex.e2e.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * One real agent server for the tests of a class, and the programs its sessions run ({@link
 * AgentPrograms}, written into the class's work folder, where the sessions also work). The tests of
 * a class share the server but not its sessions: each test creates its own, so that the tests run
 * in any order. The static helpers say what the scripted agent is to do and read what its turns
 * left.
 */
final class SessionServer implements AutoCloseable {
  final Path home;
  final Path work;
  final AgentServer server;
  final SessionApi api;
  final AgentPrograms programs;

  private SessionServer(Path home, Path work, AgentServer server, AgentPrograms programs) {
    this.home = home;
    this.work = work;
    this.server = server;
    this.api = new SessionApi(server);
    this.programs = programs;
  }

  /** A server in {@code home} with no settings of its own. */
  static SessionServer start(Path home, Path work) throws IOException {
    return start(home, work, null, Map.of(), null);
  }

  /**
   * A server in {@code home}.
   *
   * @param toml its {@code config/cortex.toml}, or null for none
   * @param env variables of its environment beyond the home's
   * @param machines its {@code machines.json}, or null for none
   */
  static SessionServer start(
      Path home, Path work, String toml, Map<String, String> env, String machines)
      throws IOException {
    if (toml != null) {
      Files.createDirectories(home.resolve("config"));
      Files.writeString(home.resolve("config/cortex.toml"), toml);
    }
    AgentPrograms programs = AgentPrograms.write(work);
    AgentServer server = new AgentServer(home, env);
    if (machines != null) {
      server.machines(machines);
    }
    return new SessionServer(home, work, server.start(), programs);
  }

  @Override
  public void close() {
    api.close();
    server.close();
  }

  /** A session of the scripted agent named {@code name}, working in the work folder. */
  JsonNode scripted(String name, Map<String, Object> more) throws Exception {
    Map<String, Object> fields = new LinkedHashMap<>(more);
    fields.put("name", name);
    return api.create(ScriptedAgent.command(), work, fields);
  }

  /**
   * A session named {@code name} of the scripted agent that keeps what it takes in ({@link
   * AgentPrograms#logged}, or {@link AgentPrograms#loggedNoAck} when it is not to acknowledge).
   */
  String logged(String name, boolean acks) throws Exception {
    return api.create(
            AgentPrograms.run(acks ? programs.logged : programs.loggedNoAck),
            work,
            Map.of("name", name))
        .path("id")
        .asString();
  }

  /**
   * Sends {@code texts} to a session, the first at once and each next {@code apart} later (not
   * waiting for the answers in between), and returns the answers in order.
   */
  List<JsonNode> sendPaced(String id, List<String> texts, Duration apart) throws Exception {
    ScheduledExecutorService senders = Executors.newScheduledThreadPool(texts.size());
    try {
      List<ScheduledFuture<JsonNode>> answers = new ArrayList<>();
      for (int i = 0; i < texts.size(); i++) {
        String text = texts.get(i);
        answers.add(
            senders.schedule(
                () -> api.send(id, text), apart.toMillis() * i, TimeUnit.MILLISECONDS));
      }
      List<JsonNode> answered = new ArrayList<>();
      for (ScheduledFuture<JsonNode> answer : answers) {
        answered.add(answer.get(AgentServer.LIMIT.toSeconds(), TimeUnit.SECONDS));
      }
      return answered;
    } finally {
      senders.shutdownNow();
    }
  }

  /**
   * Waits until every one of {@code sent} has a user entry in the session's transcript and the
   * session is idle, then checks that each reached the agent once and is in the transcript once,
   * and that the agent took them, and the transcript holds them, in the order they were sent.
   */
  void awaitEachOnce(String id, List<String> sent) throws Exception {
    awaitEachOnce(id, sent, List.of());
  }

  /**
   * {@link #awaitEachOnce(String, List)} for messages sent at the same time: their order is the
   * server's, the {@code inbox_seq} of their {@code answers} (one for each of {@code sent}, in the
   * same order), and each answer must say truly what became of its message. A failure prints what
   * tells why: the answers, the agent's input and output ({@link AgentPrograms#wire}), the user
   * entries and the session's turns.
   */
  void awaitEachOnce(String id, List<String> sent, List<JsonNode> answers) throws Exception {
    if (!answers.isEmpty() && answers.size() != sent.size()) {
      throw new IllegalArgumentException(answers.size() + " answers to " + sent.size() + " sends");
    }
    List<String> order = inOrder(sent, answers);
    try {
      Eventually.until(
          sent.size() + " messages delivered to " + id,
          AgentServer.LIMIT,
          () -> {
            try {
              return SessionApi.userTexts(api.transcriptAll(id)).containsAll(sent);
            } catch (Exception e) {
              return false;
            }
          });
      api.awaitIdle(id);
      List<String> users = SessionApi.userTexts(api.transcriptAll(id));
      List<String> taken = programs.taken(id);
      for (String text : sent) {
        assertThat(taken.stream().filter(text::equals).count())
            .as("%s reached the agent once; it took %s", text, taken)
            .isEqualTo(1);
        assertThat(users.stream().filter(text::equals).count())
            .as("%s is in the transcript once: %s", text, users)
            .isEqualTo(1);
      }
      assertThat(taken.stream().filter(sent::contains).toList())
          .as("the order in which the agent took them")
          .containsExactlyElementsOf(order);
      assertThat(users.stream().filter(sent::contains).toList())
          .as("their order in the transcript")
          .containsExactlyElementsOf(order);
      answersAgree(id, answers.isEmpty() ? List.of() : sent, answers);
    } catch (AssertionError | RuntimeException e) {
      System.err.println(diagnosis(id, answers));
      throw e;
    }
  }

  /**
   * Checks that each answer says truly what became of its message, by the turn whose user entry it
   * has: {@code injected} and {@code started} that turn; {@code offered} and {@code queued} the
   * turn named or one that started after it (the message went back to the queue, or waited for the
   * turn to say it acknowledges); never {@code delivered} (no message has a key).
   */
  private void answersAgree(String id, List<String> texts, List<JsonNode> answers)
      throws Exception {
    Map<String, String> deliveredTo = new LinkedHashMap<>();
    ofKind(api.transcriptAll(id), "user")
        .forEach(
            e ->
                deliveredTo.put(
                    e.path("body").path("text").asString(), e.path("execution_id").asString()));
    List<String> turns = new ArrayList<>();
    api.executionsOf(id).forEach(e -> turns.add(0, e.path("id").asString()));
    for (int i = 0; i < texts.size(); i++) {
      JsonNode answer = answers.get(i);
      String status = answer.path("status").asString();
      String named = answer.path("execution_id").asString(null);
      String took = deliveredTo.get(texts.get(i));
      String what = texts.get(i) + ", answered " + answer + ", delivered to " + took;
      switch (status) {
        case "injected", "started" -> assertThat(took).as(what).isEqualTo(named);
        case "offered", "queued" -> {
          if (named != null) {
            assertThat(turns.indexOf(took)).as(what).isGreaterThanOrEqualTo(turns.indexOf(named));
          }
        }
        default -> throw new AssertionError("an answer no message of these may have: " + what);
      }
    }
  }

  /** {@code sent} in the order the server numbered them (their answers' {@code inbox_seq}). */
  private static List<String> inOrder(List<String> sent, List<JsonNode> answers) {
    if (answers.isEmpty()) {
      return sent;
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < sent.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingLong(i -> answers.get(i).path("inbox_seq").asLong()));
    return order.stream().map(sent::get).toList();
  }

  /** What went on in a session's deliveries: the answers, the wire, the entries and the turns. */
  String diagnosis(String id, List<JsonNode> answers) {
    StringBuilder out = new StringBuilder("deliveries of session " + id + ":\n answers:\n");
    answers.forEach(a -> out.append("  ").append(a).append('\n'));
    try {
      out.append(" the agent's input and output:\n");
      programs.wire(id).forEach(line -> out.append("  ").append(line).append('\n'));
      out.append(" user entries (seq, execution, text):\n");
      for (JsonNode e : ofKind(api.transcriptAll(id), "user")) {
        out.append("  ")
            .append(e.path("seq").asLong())
            .append(' ')
            .append(e.path("execution_id").asString(null))
            .append(' ')
            .append(e.path("body").path("text").asString())
            .append('\n');
      }
      out.append(" turns, newest first:\n");
      for (JsonNode e : api.executionsOf(id)) {
        out.append("  ")
            .append(e.path("id").asString())
            .append(' ')
            .append(e.path("status").asString())
            .append(' ')
            .append(e.path("error").asString(""))
            .append('\n');
      }
    } catch (Exception e) {
      out.append(" (could not read the rest: ").append(e).append(")\n");
    }
    return out.toString();
  }

  /** The id of the session named {@code name}. */
  String id(String name) throws Exception {
    return api.show(name).path("id").asString();
  }

  /** How many turns {@code hold} ran for a session. */
  int turns(String id) {
    try {
      return programs.turns(id).size();
    } catch (IOException e) {
      return -1;
    }
  }

  /** The ids of every session of the server. */
  List<String> sessionIds() throws Exception {
    List<String> ids = new ArrayList<>();
    api.call("list", Map.of("limit", 200))
        .result()
        .path("sessions")
        .forEach(s -> ids.add(s.path("id").asString()));
    return ids;
  }

  /** A script for the scripted agent, as the prompt of a turn. */
  static String script(Map<String, Object> script) {
    return TestJson.JSON.writeValueAsString(script);
  }

  /** A tool call of a script. */
  static Map<String, Object> call(String tool, Map<String, Object> arguments) {
    return Map.of("tool", tool, "arguments", arguments);
  }

  /** A script that says it spent {@code usd} and reports that cost. */
  static String costing(double usd, String mode) {
    Map<String, Object> cost = new LinkedHashMap<>();
    cost.put("model", "scripted");
    cost.put("input_tokens", 10);
    cost.put("output_tokens", 5);
    cost.put("usd", usd);
    cost.put("mode", mode);
    return script(Map.of("say", "spent " + usd, "cost", cost));
  }

  static List<JsonNode> ofKind(List<JsonNode> entries, String kind) {
    return entries.stream().filter(e -> e.path("kind").asString().equals(kind)).toList();
  }

  /** A tool result's content, read as JSON. */
  static JsonNode content(JsonNode toolResult) {
    return TestJson.JSON.readTree(toolResult.path("body").path("content").asString());
  }

  /** The tools each server of the session's configuration listed, by server key. */
  static Map<String, List<String>> listed(List<JsonNode> transcript) {
    Map<String, List<String>> listed = new LinkedHashMap<>();
    for (JsonNode entry : ofKind(transcript, "assistant")) {
      String text = entry.path("body").path("text").asString();
      if (text.startsWith("{")) {
        JsonNode server = TestJson.JSON.readTree(text);
        List<String> tools = new ArrayList<>();
        server.path("tools").forEach(t -> tools.add(t.asString()));
        listed.put(server.path("server").asString(), tools);
      }
    }
    return listed;
  }

  /** Waits until every one of the processes has ended. */
  static void awaitEnded(long[] pids) {
    for (long pid : pids) {
      Eventually.until(
          "process " + pid + " ended", AgentServer.LIMIT, () -> !AgentPrograms.alive(pid));
    }
  }

  static String drain(InputStream in) {
    try {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "";
    }
  }
}
