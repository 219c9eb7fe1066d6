package dev.cortex.models;

import static dev.cortex.models.Chats.ask;
import static dev.cortex.models.Chats.json;
import static dev.cortex.testing.FakeModelApi.reply;
import static dev.cortex.testing.FakeModelApi.text;
import static dev.cortex.testing.FakeModelApi.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Cancellation;
import dev.cortex.testing.FakeModelApi;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The client on the Anthropic Messages API, against a fake that speaks it. */
class AnthropicClientTest {
  private final FakeModelApi api = FakeModelApi.start();
  private final HttpModelClient client = new HttpModelClient();
  private final ModelProvider provider = Chats.anthropic(api.url());

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void stream_text_isHeardInDeltasAndReturnedWhole_withUsageAndTheAnsweringModel()
      throws Exception {
    api.answers(
        text("Hello", " there", "!").usage(1200, 7).cache(300, 40).model("claude-x-20250101"));
    Heard heard = new Heard();
    ChatRequest request =
        new ChatRequest(
            "claude-x", "Be brief", List.of(ChatMessage.user("Hi")), List.of(), 512, 0.2, null);

    Reply reply = client.stream(provider, "sk-ant-1", request, heard, Cancellation.NONE);

    assertThat(heard.text).containsExactly("Hello", " there", "!");
    assertThat(reply.text()).isEqualTo("Hello there!");
    assertThat(reply.parts()).containsExactly(new ChatPart.Text("Hello there!"));
    assertThat(reply.stop()).isEqualTo(Reply.Stop.END_TURN);
    assertThat(reply.stopReason()).isEqualTo("end_turn");
    assertThat(reply.usage()).isEqualTo(new Usage(1200, 7, 300, 40));
    assertThat(reply.model()).isEqualTo("claude-x-20250101");

    FakeModelApi.Request sent = api.lastRequest();
    assertThat(sent.path()).isEqualTo("/v1/messages");
    assertThat(sent.header("x-api-key")).isEqualTo("sk-ant-1");
    assertThat(sent.header("anthropic-version")).isEqualTo("2023-06-01");
    assertThat(sent.header("authorization")).isNull();
    assertThat(sent.body())
        .isEqualTo(
            json(
                """
                {"model":"claude-x","max_tokens":512,"system":"Be brief",
                 "messages":[{"role":"user","content":"Hi"}],"temperature":0.2,"stream":true}
                """));
  }

  @Test
  void stream_toolUse_argumentsInPiecesBecomeOneObject_andTheToolsAreSentWithTheirSchemas()
      throws Exception {
    api.answers(
        reply()
            .text("Let me look.")
            .toolCall("toolu_1", "read_file", "{\"pa", "th\": \"notes", ".txt\"}")
            .usage(50, 20));
    ChatRequest request =
        new ChatRequest(
            "claude-x",
            null,
            List.of(ChatMessage.user("What do my notes say?")),
            List.of(Chats.readFile()),
            1024,
            null,
            Thinking.OFF);

    Reply reply = client.stream(provider, "k", request, new Heard(), Cancellation.NONE);

    assertThat(reply.stop()).isEqualTo(Reply.Stop.TOOL_USE);
    assertThat(reply.stopReason()).isEqualTo("tool_use");
    assertThat(reply.text()).isEqualTo("Let me look.");
    assertThat(reply.toolCalls())
        .containsExactly(
            new ChatPart.ToolCall("toolu_1", "read_file", json("{\"path\":\"notes.txt\"}")));
    assertThat(api.lastRequest().body().path("tools"))
        .isEqualTo(
            json(
                """
                [{"name":"read_file","description":"Reads a file.",
                  "input_schema":{"type":"object","properties":{"path":{"type":"string"}}}}]
                """));
  }

  @Test
  void stream_toolOutputsGoBack_asToolResultsFirst_withIsErrorOnlyWhenFailed() throws Exception {
    api.answers(text("They say hello."));
    ChatPart.ToolCall read =
        new ChatPart.ToolCall("toolu_1", "read_file", json("{\"path\":\"notes.txt\"}"));
    ChatPart.ToolCall missing =
        new ChatPart.ToolCall("toolu_2", "read_file", json("{\"path\":\"gone.txt\"}"));
    ChatRequest request =
        new ChatRequest(
            "claude-x",
            null,
            List.of(
                ChatMessage.user("What do my notes say?"),
                ChatMessage.assistant(List.of(new ChatPart.Text("Looking."), read, missing)),
                ChatMessage.user(
                    List.of(
                        new ChatPart.Text("Here you are."),
                        new ChatPart.ToolOutput("toolu_1", "hello", false),
                        new ChatPart.ToolOutput("toolu_2", "no such file", true)))),
            List.of(Chats.readFile()),
            1024,
            null,
            Thinking.OFF);

    client.stream(provider, "k", request, new Heard(), Cancellation.NONE);

    assertThat(api.lastRequest().body().path("messages"))
        .isEqualTo(
            json(
                """
                [{"role":"user","content":"What do my notes say?"},
                 {"role":"assistant","content":[
                   {"type":"text","text":"Looking."},
                   {"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"notes.txt"}},
                   {"type":"tool_use","id":"toolu_2","name":"read_file","input":{"path":"gone.txt"}}]},
                 {"role":"user","content":[
                   {"type":"tool_result","tool_use_id":"toolu_1","content":"hello"},
                   {"type":"tool_result","tool_use_id":"toolu_2","content":"no such file","is_error":true},
                   {"type":"text","text":"Here you are."}]}]
                """));
  }

  @Test
  void stream_thinking_isHeardAndKeptWithItsSignature_andGoesBackSigned() throws Exception {
    api.answers(
        reply()
            .thinking("The user wants the notes; read them first.", "sig-abc")
            .toolCall("toolu_1", "read_file", "{\"path\":\"notes.txt\"}"),
        text("Done."));
    Heard heard = new Heard();
    ChatRequest request =
        new ChatRequest(
            "claude-x",
            null,
            List.of(ChatMessage.user("Read my notes")),
            List.of(Chats.readFile()),
            4096,
            0.7,
            Thinking.MEDIUM);

    Reply first = client.stream(provider, "k", request, heard, Cancellation.NONE);

    assertThat(String.join("", heard.thinking))
        .isEqualTo("The user wants the notes; read them first.");
    assertThat(heard.thinking).hasSizeGreaterThan(1);
    assertThat(first.parts().get(0))
        .isEqualTo(new ChatPart.Thinking("The user wants the notes; read them first.", "sig-abc"));
    JsonNode asked = api.lastRequest().body();
    assertThat(asked.path("thinking"))
        .isEqualTo(json("{\"type\":\"enabled\",\"budget_tokens\":8192}"));
    assertThat(asked.path("max_tokens").asInt()).isGreaterThan(8192);
    assertThat(asked.has("temperature")).isFalse();

    List<ChatMessage> conversation =
        List.of(
            ChatMessage.user("Read my notes"),
            ChatMessage.assistant(first.parts()),
            ChatMessage.user(List.of(new ChatPart.ToolOutput("toolu_1", "hello", false))));
    client.stream(
        provider,
        "k",
        new ChatRequest(
            "claude-x", null, conversation, List.of(Chats.readFile()), 4096, null, Thinking.MEDIUM),
        new Heard(),
        Cancellation.NONE);

    assertThat(api.lastRequest().body().path("messages").path(1).path("content").path(0))
        .isEqualTo(
            json(
                "{\"type\":\"thinking\",\"thinking\":\"The user wants the notes; read them"
                    + " first.\",\"signature\":\"sig-abc\"}"));
  }

  @Test
  void body_thinkingLevels_setTheirBudgets_offSendsNone_unsignedThinkingStaysHome() {
    for (Thinking level : Thinking.values()) {
      ChatRequest request =
          new ChatRequest(
              "m",
              null,
              List.of(
                  ChatMessage.user("a"),
                  ChatMessage.assistant(
                      List.of(
                          new ChatPart.Thinking("other model's", null), new ChatPart.Text("b"))),
                  ChatMessage.user("c")),
              List.of(),
              30_000,
              null,
              level);
      JsonNode body = AnthropicWire.INSTANCE.body(request, provider.baseUrl(), false);
      int budget =
          switch (level) {
            case OFF -> 0;
            case LOW -> 2048;
            case MEDIUM -> 8192;
            case HIGH -> 24576;
          };
      assertThat(body.has("thinking")).as(level.name()).isEqualTo(budget > 0);
      if (budget > 0) {
        assertThat(body.path("thinking").path("budget_tokens").asInt()).isEqualTo(budget);
      }
      assertThat(body.path("max_tokens").asInt()).isEqualTo(30_000);
      assertThat(body.has("stream")).isFalse();
      assertThat(body.path("messages").path(1).path("content"))
          .isEqualTo(json("[{\"type\":\"text\",\"text\":\"b\"}]"));
    }
  }

  @Test
  void complete_withoutAStream_readsTheSameAnswerWhole() throws Exception {
    api.answers(
        reply()
            .thinking("hmm", "sig-1")
            .text("Hi")
            .toolCall("toolu_9", "read_file", "{\"path\":\"a\"}")
            .usage(10, 3)
            .cache(5, 6));

    Reply reply = client.complete(provider, "k", ask("claude-x", "Hi"), Cancellation.NONE);

    assertThat(api.lastRequest().streams()).isFalse();
    assertThat(api.lastRequest().body().has("stream")).isFalse();
    assertThat(reply.parts())
        .containsExactly(
            new ChatPart.Thinking("hmm", "sig-1"),
            new ChatPart.Text("Hi"),
            new ChatPart.ToolCall("toolu_9", "read_file", json("{\"path\":\"a\"}")));
    assertThat(reply.usage()).isEqualTo(new Usage(10, 3, 5, 6));
    assertThat(reply.stop()).isEqualTo(Reply.Stop.TOOL_USE);
  }

  @Test
  void stream_outOfTokens_stopsAtMaxTokens() throws Exception {
    api.answers(text("Once upon a").outOfTokens());

    Reply reply = client.stream(provider, "k", ask("m", "story"), new Heard(), Cancellation.NONE);

    assertThat(reply.stop()).isEqualTo(Reply.Stop.MAX_TOKENS);
    assertThat(reply.stopReason()).isEqualTo("max_tokens");
  }

  @Test
  void stream_twoCallsOfOneTurn_eachWithItsId() throws Exception {
    api.answers(
        toolCall("toolu_a", "read_file", "{\"path\":\"a\"}")
            .toolCall("toolu_b", "read_file", "{\"path\":\"b\"}"));

    Reply reply = client.stream(provider, "k", ask("m", "both"), new Heard(), Cancellation.NONE);

    assertThat(reply.toolCalls())
        .extracting(ChatPart.ToolCall::id)
        .containsExactly("toolu_a", "toolu_b");
  }
}
