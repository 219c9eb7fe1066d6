package dev.cortex.e2e.channels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Slack as a front door, against {@link FakeSlack} over Socket Mode: a message in an allowed
 * channel starts a session on {@code slack:<channel>} and its reply is posted back; a message in a
 * thread has a session of its own, answered in the thread; the same event delivered again is not a
 * second message; a channel that is not allowed starts nothing; a long reply with code comes as
 * several messages that each render whole.
 */
class SlackIT {
  static final String ALLOWED = "C0ALLOW";

  @TempDir static Path home;
  @TempDir static Path work;
  static FakeSlack slack;
  static AgentServer server;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    slack = new FakeSlack();
    ChannelSetup.slack(home, slack, ALLOWED, work, "");
    server =
        new AgentServer(
                home,
                Map.of(
                    "SLACK_BOT_TOKEN", FakeSlack.BOT_TOKEN, "SLACK_APP_TOKEN", FakeSlack.APP_TOKEN))
            .start();
    api = new SessionApi(server);
    try {
      Eventually.until("the agent server connects to Slack", () -> slack.connected() == 1);
    } catch (AssertionError e) {
      throw new AssertionError(
          e.getMessage()
              + "; opens "
              + slack.opens
              + "; calls "
              + slack.calls.size()
              + "; log:\n"
              + server.stderr,
          e);
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
    if (slack != null) {
      slack.close();
    }
  }

  /** The first card posted whose blocks hold {@code text}, once it is there. */
  static JsonNode card(String text) {
    Eventually.until(
        "a card with '" + text + "'",
        AgentServer.LIMIT,
        () ->
            slack.calls("chat.postMessage").stream()
                .anyMatch(c -> c.form().getOrDefault("blocks", "").contains(text)));
    FakeSlack.Call card =
        slack.calls("chat.postMessage").stream()
            .filter(c -> c.form().getOrDefault("blocks", "").contains(text))
            .findFirst()
            .orElseThrow();
    return TestJson.JSON.valueToTree(card.form());
  }

  /** The button of {@code card} labelled {@code label}. */
  static JsonNode button(JsonNode card, String label) {
    JsonNode blocks = TestJson.JSON.readTree(card.path("blocks").asString());
    for (JsonNode block : blocks) {
      for (JsonNode element : block.path("elements")) {
        if (element.path("text").path("text").asString().equals(label)) {
          return element;
        }
      }
    }
    throw new AssertionError("no button " + label + " in " + blocks);
  }

  /** The texts posted to {@code channel} (and {@code thread}, null: the channel itself). */
  static List<String> posted(String channel, String thread) {
    return slack.calls("chat.postMessage").stream()
        .filter(c -> channel.equals(c.form().get("channel")))
        .filter(c -> java.util.Objects.equals(thread, c.form().get("thread_ts")))
        .map(c -> c.form().get("text"))
        .collect(Collectors.toList());
  }

  static void awaitPosted(String channel, String thread, String text) {
    Eventually.until(
        "'" + text + "' posted to " + channel + (thread == null ? "" : "/" + thread),
        AgentServer.LIMIT,
        () -> posted(channel, thread).contains(text));
  }

  @Test
  void aMessageInAnAllowedChannel_startsASession_andTheReplyIsPostedBack_once() throws Exception {
    String first =
        slack.push(
            FakeSlack.message(
                "Ev001",
                ALLOWED,
                "U0PERSON",
                "<@" + FakeSlack.BOT_USER + "> hello there",
                "1700000000.000100",
                null));
    awaitPosted(ALLOWED, null, "hello there");
    assertThat(slack.acks).contains(first);
    assertThat(slack.calls("chat.postMessage")).allMatch(FakeSlack.Call::authorized);

    JsonNode session = api.show("slack-" + ALLOWED);
    assertThat(session.path("channel").asString()).isEqualTo("slack:" + ALLOWED);

    // Slack delivers the same event again (say, it missed the acknowledgement): one message.
    String again =
        slack.push(
            FakeSlack.message(
                "Ev001", ALLOWED, "U0PERSON", "hello there", "1700000000.000100", null));
    slack.push(
        FakeSlack.message("Ev002", ALLOWED, "U0PERSON", "and again", "1700000000.000200", null));
    awaitPosted(ALLOWED, null, "and again");
    assertThat(slack.acks).contains(again);
    // The same message as an app_mention event (another event id): still one message.
    Map<String, Object> mention =
        FakeSlack.message(
            "Ev003",
            ALLOWED,
            "U0PERSON",
            "<@" + FakeSlack.BOT_USER + "> and again",
            "1700000000.000200",
            null);
    @SuppressWarnings("unchecked")
    Map<String, Object> event = (Map<String, Object>) mention.get("event");
    event.put("type", "app_mention");
    slack.push(mention);
    slack.push(FakeSlack.message("Ev004", ALLOWED, "U0PERSON", "third", "1700000000.000300", null));
    awaitPosted(ALLOWED, null, "third");
    assertThat(SessionApi.userTexts(api.transcript("slack-" + ALLOWED)))
        .containsExactly("hello there", "and again", "third");
    assertThat(posted(ALLOWED, null)).containsExactly("hello there", "and again", "third");
  }

  @Test
  void aMessageInAThread_hasASessionOfItsOwn_answeredInTheThread() throws Exception {
    slack.push(
        FakeSlack.message(
            "Ev101",
            ALLOWED,
            "U0PERSON",
            "in the thread",
            "1700000100.000200",
            "1700000100.000100"));
    awaitPosted(ALLOWED, "1700000100.000100", "in the thread");
    JsonNode session = api.show("slack-" + ALLOWED + "-1700000100.000100");
    assertThat(session.path("channel").asString())
        .isEqualTo("slack:" + ALLOWED + "/1700000100.000100");
  }

  @Test
  void aChannelNotAllowed_startsNothing_butItsEventIsAcknowledged() throws Exception {
    String envelope =
        slack.push(
            FakeSlack.message("Ev201", "C0OTHER", "U0PERSON", "let me in", "1700000200.1", null));
    Eventually.until("the event is acknowledged", () -> slack.acks.contains(envelope));
    // A message that is allowed, after it, is answered: the other was not taken meanwhile.
    slack.push(FakeSlack.message("Ev202", ALLOWED, "U0PERSON", "after that", "1700000200.2", null));
    awaitPosted(ALLOWED, null, "after that");
    assertThat(posted("C0OTHER", null)).isEmpty();
    assertThat(server.stderr.toString()).contains("not allowed by [slack]");
  }

  @Test
  void aLongReplyWithCode_comesAsSeveralMessages_eachWhole() throws Exception {
    StringBuilder code = new StringBuilder("Here it is:\n```\n");
    for (int i = 0; i < 400; i++) {
      code.append("line number ").append(i).append('\n');
    }
    code.append("```\nThat is all.");
    String script = TestJson.JSON.writeValueAsString(Map.of("say", List.of(code.toString())));
    slack.push(
        FakeSlack.message(
            "Ev301", ALLOWED, "U0PERSON", script, "1700000300.000200", "1700000300.000100"));
    Eventually.until(
        "the long reply",
        AgentServer.LIMIT,
        () ->
            posted(ALLOWED, "1700000300.000100").stream()
                .anyMatch(t -> t.endsWith("That is all.")));
    List<String> parts = posted(ALLOWED, "1700000300.000100");
    assertThat(parts.size()).isGreaterThan(1);
    for (String part : parts) {
      assertThat(part.length()).isLessThanOrEqualTo(3500);
      assertThat((part.split("```", -1).length - 1) % 2).as("fences balanced").isZero();
    }
    assertThat(String.join("\n", parts)).contains("line number 0", "line number 399");
  }

  @Test
  void slackSendFile_uploadsInTwoSteps_intoTheSessionsThread() throws Exception {
    Files.writeString(work.resolve("report.txt"), "the report");
    String script =
        TestJson.JSON.writeValueAsString(
            Map.of(
                "calls",
                List.of(
                    Map.of(
                        "tool",
                        "slack_send_file",
                        "arguments",
                        Map.of(
                            "file_path",
                            "report.txt",
                            "title",
                            "Report",
                            "comment",
                            "Here it is")))));
    slack.push(
        FakeSlack.message(
            "Ev401", ALLOWED, "U0PERSON", script, "1700000400.000200", "1700000400.000100"));
    Eventually.until(
        "the upload is completed",
        AgentServer.LIMIT,
        () -> !slack.calls("files.completeUploadExternal").isEmpty());
    FakeSlack.Call url = slack.calls("files.getUploadURLExternal").get(0);
    assertThat(url.form()).containsEntry("filename", "report.txt").containsEntry("length", "10");
    assertThat(slack.uploads)
        .anySatisfy(bytes -> assertThat(new String(bytes)).contains("the report"));
    FakeSlack.Call complete = slack.calls("files.completeUploadExternal").get(0);
    assertThat(complete.authorized()).isTrue();
    assertThat(complete.form())
        .containsEntry("channel_id", ALLOWED)
        .containsEntry("thread_ts", "1700000400.000100")
        .containsEntry("initial_comment", "Here it is");
    JsonNode files = TestJson.JSON.readTree(complete.form().get("files"));
    assertThat(files.get(0).path("title").asString()).isEqualTo("Report");

    String session = "slack-" + ALLOWED + "-1700000400.000100";
    JsonNode result =
        api.awaitEntry(
            session, e -> e.path("kind").asString().equals("tool_result"), "the tool's result");
    assertThat(result.path("body").path("is_error").asBoolean()).as("%s", result).isFalse();
    assertThat(result.path("body").path("content").asString()).contains("Sent report.txt");
    assertThat(server.stderr.toString()).doesNotContain(FakeSlack.BOT_TOKEN, FakeSlack.APP_TOKEN);
  }

  @Test
  void aBlockingQuestion_isACardWithButtons_andAClickAnswersIt_sayingWho() throws Exception {
    String script =
        TestJson.JSON.writeValueAsString(
            Map.of(
                "calls",
                List.of(
                    Map.of(
                        "tool",
                        "cortex_ask_user",
                        "arguments",
                        Map.of(
                            "questions",
                            List.of(
                                Map.of(
                                    "question", "Which colour?",
                                    "header", "Colour",
                                    "options",
                                        List.of(
                                            Map.of("label", "Red"), Map.of("label", "Blue")))))))));
    String thread = "1700000500.000100";
    slack.push(
        FakeSlack.message("Ev501", ALLOWED, "U0PERSON", script, "1700000500.000200", thread));
    JsonNode card = card("Which colour?");
    assertThat(card.path("channel").asString()).isEqualTo(ALLOWED);
    assertThat(card.path("thread_ts").asString()).isEqualTo(thread);
    JsonNode blue = button(card, "Blue");

    // Someone not allowed clicks first: nothing is answered.
    slack.click(
        "U0PERSON", "C0OTHER", blue.path("action_id").asString(), blue.path("value").asString());
    slack.click(
        "U0PERSON", ALLOWED, blue.path("action_id").asString(), blue.path("value").asString());
    String session = "slack-" + ALLOWED + "-" + thread;
    JsonNode result =
        api.awaitEntry(session, e -> e.path("kind").asString().equals("tool_result"), "the answer");
    assertThat(result.path("body").path("content").asString()).contains("Blue");
    JsonNode shown =
        TestJson.JSON.readTree(
            dev.cortex.testing.CliRun.run(
                    server, "", "interactions", "show", blue.path("value").asString(), "--json")
                .stdout());
    assertThat(shown.toString()).contains("\"via\":\"slack\"", "slack:U0PERSON");
    assertThat(server.stderr.toString()).contains("a click in C0OTHER by U0PERSON is not allowed");
  }

  @Test
  void aPlan_isACardWithApproveAndReject_andRejectTellsTheAgentToAsk() throws Exception {
    Files.createDirectories(work.resolve("plan"));
    Files.writeString(work.resolve("plan/PLAN.md"), "1. Paint the shed.\n");
    String script =
        TestJson.JSON.writeValueAsString(
            Map.of(
                "calls",
                List.of(
                    Map.of("tool", "cortex_plan_enter", "arguments", Map.of("reasoning", "a shed")),
                    Map.of(
                        "tool",
                        "cortex_plan_exit",
                        "arguments",
                        Map.of("plan_file_path", "plan/PLAN.md", "summary", "Paint it.")))));
    String thread = "1700000600.000100";
    slack.push(
        FakeSlack.message("Ev601", ALLOWED, "U0PERSON", script, "1700000600.000200", thread));
    JsonNode reject = button(card("Paint the shed"), "Reject");
    slack.click(
        "U0PERSON", ALLOWED, reject.path("action_id").asString(), reject.path("value").asString());
    String session = "slack-" + ALLOWED + "-" + thread;
    JsonNode result =
        api.awaitEntry(
            session,
            e ->
                e.path("kind").asString().equals("tool_result")
                    && e.path("body").path("content").asString().contains("ask in the thread"),
            "the rejection");
    assertThat(result.path("body").path("content").asString()).contains("Rejected in Slack");
  }
}
