package dev.cortex.e2e.channels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Feishu as a front door, against {@link FakeFeishu}, its events posted to {@code /feishu/events}
 * in plain JSON (no encrypt key): a message in an allowed chat starts a session on {@code
 * feishu:<chat>} and its reply is posted back; Feishu's retry of an event is not a second message;
 * a chat that is not allowed starts nothing; a request without the app's verification token is
 * refused; {@code feishu_send_file} uploads and sends a file message; a question and a plan come as
 * cards whose buttons answer them; a tenant token that expired is fetched again.
 */
class FeishuIT {
  static final String CHAT = "oc_allowed01";
  static final List<String> CHATS =
      List.of(CHAT, "oc_files01", "oc_ask01", "oc_plan01", "oc_expiry01");
  static final String PERSON = "ou_person01";

  @TempDir static Path home;
  @TempDir static Path work;
  static FakeFeishu feishu;
  static AgentServer server;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    feishu = new FakeFeishu();
    ChannelSetup.feishu(home, feishu, CHATS, work, "");
    server =
        new AgentServer(
                home,
                Map.of(
                    "FEISHU_APP_ID", FakeFeishu.APP_ID,
                    "FEISHU_APP_SECRET", FakeFeishu.APP_SECRET,
                    "FEISHU_VERIFICATION_TOKEN", FakeFeishu.VERIFICATION))
            .start();
    api = new SessionApi(server);
    Eventually.until("the bot's identity", () -> !feishu.calls("bot/v3/info").isEmpty());
  }

  @AfterAll
  static void stop() throws Exception {
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
    if (feishu != null) {
      feishu.close();
    }
  }

  /** Delivers {@code payload} until the server takes it (it answers 503 while it starts). */
  static HttpResponse<String> deliver(Object payload) throws Exception {
    HttpResponse<String>[] last = new HttpResponse[1];
    Eventually.until(
        "the event is taken",
        () -> {
          last[0] = FakeFeishu.deliver(server, payload);
          return last[0].statusCode() != 503;
        });
    return last[0];
  }

  static void awaitText(String chat, String text) {
    Eventually.until(
        "'" + text + "' sent to " + chat,
        AgentServer.LIMIT,
        () -> feishu.texts(chat).contains(text));
  }

  static String script(Map<String, Object>... calls) {
    return TestJson.JSON.writeValueAsString(Map.of("calls", List.of(calls)));
  }

  static Map<String, Object> call(String tool, Map<String, Object> arguments) {
    return Map.of("tool", tool, "arguments", arguments);
  }

  /** The first card sent to {@code chat} that holds {@code text}, once it is there. */
  static JsonNode card(String chat, String text) {
    Eventually.until(
        "a card with '" + text + "'",
        AgentServer.LIMIT,
        () -> feishu.sent(chat, "interactive").stream().anyMatch(c -> c.toString().contains(text)));
    return feishu.sent(chat, "interactive").stream()
        .filter(c -> c.toString().contains(text))
        .findFirst()
        .orElseThrow();
  }

  /** The value of the button of {@code card} labelled {@code label}. */
  static JsonNode button(JsonNode card, String label) {
    for (JsonNode element : card.path("elements")) {
      for (JsonNode action : element.path("actions")) {
        if (action.path("text").path("content").asString().equals(label)) {
          return action.path("value");
        }
      }
    }
    throw new AssertionError("no button " + label + " in " + card);
  }

  @Test
  void aMessageInAnAllowedChat_startsASession_andTheReplyIsPostedBack_once() throws Exception {
    Map<String, Object> first =
        FakeFeishu.message("ev-001", CHAT, PERSON, "@_user_1 hello feishu", "om_m001");
    assertThat(deliver(first).statusCode()).isEqualTo(200);
    awaitText(CHAT, "hello feishu");
    JsonNode session = api.show("feishu-" + CHAT);
    assertThat(session.path("channel").asString()).isEqualTo("feishu:" + CHAT);

    // Feishu sends the same event again (it missed the answer): one message.
    assertThat(FakeFeishu.deliver(server, first).statusCode()).isEqualTo(200);
    deliver(FakeFeishu.message("ev-002", CHAT, PERSON, "second one", "om_m002"));
    awaitText(CHAT, "second one");
    assertThat(SessionApi.userTexts(api.transcript("feishu-" + CHAT)))
        .containsExactly("hello feishu", "second one");
    assertThat(feishu.texts(CHAT)).containsExactly("hello feishu", "second one");
    assertThat(feishu.calls("im/v1/messages"))
        .allSatisfy(c -> assertThat(c.query()).isEqualTo("receive_id_type=chat_id"));
  }

  @Test
  void aChatNotAllowed_startsNothing_andARequestWithoutTheToken_isRefused() throws Exception {
    assertThat(
            deliver(FakeFeishu.message("ev-101", "oc_other", PERSON, "let me in", "om_m101"))
                .statusCode())
        .isEqualTo(200);
    Map<String, Object> forged = FakeFeishu.message("ev-102", CHAT, PERSON, "forged", "om_m102");
    @SuppressWarnings("unchecked")
    Map<String, Object> header = (Map<String, Object>) forged.get("header");
    header.put("token", "not-the-token");
    assertThat(FakeFeishu.deliver(server, forged).statusCode()).isEqualTo(401);
    assertThat(FakeFeishu.deliver(server, Map.of("schema", "2.0")).statusCode()).isEqualTo(401);

    String check =
        "{\"challenge\":\"ch-9921\",\"token\":\""
            + FakeFeishu.VERIFICATION
            + "\",\"type\":\"url_verification\"}";
    HttpResponse<String> verified = FakeFeishu.deliver(server, TestJson.JSON.readTree(check));
    assertThat(verified.statusCode()).isEqualTo(200);
    assertThat(TestJson.JSON.readTree(verified.body()).path("challenge").asString())
        .isEqualTo("ch-9921");

    assertThat(api.call("list", Map.of()).result().toString()).doesNotContain("feishu:oc_other");
    assertThat(SessionApi.userTexts(api.transcript("feishu-" + CHAT))).doesNotContain("forged");
    assertThat(feishu.texts("oc_other")).isEmpty();
    assertThat(server.stderr.toString())
        .contains("not allowed by [feishu]", "a request to /feishu/events was refused")
        .doesNotContain(FakeFeishu.APP_SECRET, FakeFeishu.VERIFICATION);
  }

  @Test
  void feishuSendFile_uploadsTheFile_andSendsAFileMessage_andAnotherChatMustBeAllowed()
      throws Exception {
    Files.writeString(work.resolve("notes.pdf"), "%PDF-1.4 fake notes");
    String chat = "oc_files01";
    deliver(
        FakeFeishu.message(
            "ev-201",
            chat,
            PERSON,
            script(
                call("feishu_send_file", Map.of("file_path", "notes.pdf", "title", "The notes")),
                call(
                    "feishu_send_file",
                    Map.of("file_path", "notes.pdf", "channel", "feishu:oc_elsewhere"))),
            "om_m201"));
    Eventually.until(
        "the file message", AgentServer.LIMIT, () -> !feishu.sent(chat, "file").isEmpty());
    FakeFeishu.Call upload = feishu.calls("im/v1/files").get(0);
    assertThat(upload.form())
        .containsEntry("file_type", "pdf")
        .containsEntry("file_name", "notes.pdf")
        .containsEntry("file", "%PDF-1.4 fake notes");
    assertThat(upload.accepted()).isTrue();
    String key = feishu.sent(chat, "file").get(0).path("file_key").asString();
    assertThat(key).startsWith("file_v3_");
    assertThat(feishu.texts(chat)).contains("The notes");

    api.awaitEntry(
        "feishu-" + chat,
        e -> e.path("body").path("content").asString().contains("CHAT_NOT_ALLOWED"),
        "the second tool's result");
    List<JsonNode> results =
        api.transcript("feishu-" + chat).stream()
            .filter(e -> e.path("kind").asString().equals("tool_result"))
            .toList();
    assertThat(results.get(0).path("body").path("is_error").asBoolean()).isFalse();
    assertThat(results.get(0).path("body").path("content").asString())
        .contains("Sent notes.pdf", key);
    assertThat(results.get(1).path("body").path("is_error").asBoolean()).isTrue();
    assertThat(results.get(1).path("body").path("content").asString())
        .contains("CHAT_NOT_ALLOWED", "oc_elsewhere");
    assertThat(feishu.calls("im/v1/files")).hasSize(1);
  }

  @Test
  void aBlockingQuestion_isACard_andAClickAnswersIt_sayingWho() throws Exception {
    String chat = "oc_ask01";
    deliver(
        FakeFeishu.message(
            "ev-301",
            chat,
            PERSON,
            script(
                call(
                    "cortex_ask_user",
                    Map.of(
                        "questions",
                        List.of(
                            Map.of(
                                "question", "Which fruit?",
                                "header", "Fruit",
                                "options",
                                    List.of(Map.of("label", "Apple"), Map.of("label", "Pear"))))))),
            "om_m301"));
    JsonNode pear = button(card(chat, "Which fruit?"), "Pear");

    // A click from another chat, then one by the person in the chat.
    HttpResponse<String> outside = deliver(FakeFeishu.click("ev-302", "oc_other", PERSON, pear));
    assertThat(TestJson.JSON.readTree(outside.body()).path("toast").path("type").asString())
        .isEqualTo("error");
    // From another allowed chat, not the question's: not taken either.
    HttpResponse<String> elsewhere = deliver(FakeFeishu.click("ev-305", "oc_plan01", PERSON, pear));
    assertThat(TestJson.JSON.readTree(elsewhere.body()).path("toast").path("type").asString())
        .isEqualTo("info");
    HttpResponse<String> clicked = deliver(FakeFeishu.click("ev-303", chat, PERSON, pear));
    assertThat(TestJson.JSON.readTree(clicked.body()).path("toast").path("type").asString())
        .isEqualTo("success");
    JsonNode result =
        api.awaitEntry(
            "feishu-" + chat,
            e ->
                e.path("kind").asString().equals("tool_result")
                    && e.path("body").path("content").asString().contains("Pear"),
            "the answer");
    assertThat(result.path("body").path("is_error").asBoolean()).isFalse();
    String id = pear.path("interaction").asString();
    JsonNode shown =
        TestJson.JSON.readTree(
            CliRun.run(server, "", "interactions", "show", id, "--json").stdout());
    assertThat(shown.toString()).contains("\"via\":\"feishu\"", "feishu:" + PERSON);
    // Clicked again: answered already, said in the toast.
    assertThat(deliver(FakeFeishu.click("ev-304", chat, PERSON, pear)).body())
        .contains("answered already");
    assertThat(server.stderr.toString()).contains("came from another channel");
  }

  @Test
  void aPlan_isACardWithApproveAndReject_andRejectTellsTheAgentToAsk() throws Exception {
    Files.createDirectories(work.resolve("plan"));
    Files.writeString(work.resolve("plan/FEISHU.md"), "1. Water the plants.\n");
    String chat = "oc_plan01";
    deliver(
        FakeFeishu.message(
            "ev-401",
            chat,
            PERSON,
            script(
                call("cortex_plan_enter", Map.of("reasoning", "plants")),
                call(
                    "cortex_plan_exit",
                    Map.of("plan_file_path", "plan/FEISHU.md", "summary", "Water them."))),
            "om_m401"));
    JsonNode reject = button(card(chat, "Water the plants"), "Reject");
    deliver(FakeFeishu.click("ev-402", chat, PERSON, reject));
    JsonNode result =
        api.awaitEntry(
            "feishu-" + chat,
            e ->
                e.path("kind").asString().equals("tool_result")
                    && e.path("body").path("content").asString().contains("ask in the chat"),
            "the rejection");
    assertThat(result.path("body").path("content").asString()).contains("Rejected in Feishu");
  }

  @Test
  void aTenantTokenThatExpired_isFetchedAgain_andTheReplyGoes() throws Exception {
    int tokens = feishu.calls("auth/v3/tenant_access_token/internal").size();
    feishu.expireToken();
    deliver(FakeFeishu.message("ev-501", "oc_expiry01", PERSON, "after expiry", "om_m501"));
    awaitText("oc_expiry01", "after expiry");
    assertThat(feishu.calls("auth/v3/tenant_access_token/internal").size()).isGreaterThan(tokens);
  }
}
