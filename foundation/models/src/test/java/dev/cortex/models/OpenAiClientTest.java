package dev.cortex.models;

import static dev.cortex.models.Chats.ask;
import static dev.cortex.models.Chats.json;
import static dev.cortex.testing.FakeModelApi.reply;
import static dev.cortex.testing.FakeModelApi.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Cancellation;
import dev.cortex.testing.FakeModelApi;
import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The client on OpenAI-compatible chat completions, against a fake that speaks them. */
class OpenAiClientTest {
  private final FakeModelApi api = FakeModelApi.start();
  private final HttpModelClient client = new HttpModelClient();
  private final ModelProvider provider = Chats.openai(api.openAiUrl());

  @AfterEach
  void stop() {
    api.close();
  }

  @Test
  void stream_text_isHeardInChunks_usageCountsCachedPromptTokensAsCacheReads() throws Exception {
    api.answers(text("Bonjour", " à", " vous").usage(900, 12).cache(100, 0).model("gpt-x-2025"));
    Heard heard = new Heard();
    ChatRequest request =
        new ChatRequest(
            "gpt-x", "Be kind", List.of(ChatMessage.user("Greet me")), List.of(), 200, 0.5, null);

    Reply reply = client.stream(provider, "sk-openai-1", request, heard, Cancellation.NONE);

    assertThat(heard.text).containsExactly("Bonjour", " à", " vous");
    assertThat(reply.text()).isEqualTo("Bonjour à vous");
    assertThat(reply.stop()).isEqualTo(Reply.Stop.END_TURN);
    assertThat(reply.stopReason()).isEqualTo("stop");
    assertThat(reply.usage()).isEqualTo(new Usage(900, 12, 100, 0));
    assertThat(reply.model()).isEqualTo("gpt-x-2025");

    FakeModelApi.Request sent = api.lastRequest();
    assertThat(sent.path()).isEqualTo("/v1/chat/completions");
    assertThat(sent.header("authorization")).isEqualTo("Bearer sk-openai-1");
    assertThat(sent.header("x-api-key")).isNull();
    assertThat(sent.body())
        .isEqualTo(
            json(
                """
                {"model":"gpt-x","max_tokens":200,
                 "messages":[{"role":"system","content":"Be kind"},
                             {"role":"user","content":"Greet me"}],
                 "temperature":0.5,"stream":true,"stream_options":{"include_usage":true}}
                """));
  }

  @Test
  void stream_toolCalls_argumentsInPiecesByIndex_becomeCallsInOrder() throws Exception {
    api.answers(
        reply()
            .toolCall("call_1", "read_file", "{\"path\"", ": \"a.txt\"", "}")
            .toolCall("call_2", "read_file", "{\"path\": \"b.txt\"}"));
    ChatRequest request =
        new ChatRequest(
            "gpt-x",
            null,
            List.of(ChatMessage.user("Read both")),
            List.of(Chats.readFile()),
            100,
            null,
            Thinking.OFF);

    Reply reply = client.stream(provider, "k", request, new Heard(), Cancellation.NONE);

    assertThat(reply.stop()).isEqualTo(Reply.Stop.TOOL_USE);
    assertThat(reply.stopReason()).isEqualTo("tool_calls");
    assertThat(reply.toolCalls())
        .containsExactly(
            new ChatPart.ToolCall("call_1", "read_file", json("{\"path\":\"a.txt\"}")),
            new ChatPart.ToolCall("call_2", "read_file", json("{\"path\":\"b.txt\"}")));
    assertThat(api.lastRequest().body().path("tools"))
        .isEqualTo(
            json(
                """
                [{"type":"function","function":{"name":"read_file","description":"Reads a file.",
                  "parameters":{"type":"object","properties":{"path":{"type":"string"}}}}}]
                """));
  }

  @Test
  void stream_toolOutputs_goBackAsToolMessagesAfterTheAssistantsCalls() throws Exception {
    api.answers(text("a says 1"));
    ChatPart.ToolCall call = new ChatPart.ToolCall("call_1", "read_file", json("{\"path\":\"a\"}"));
    ChatRequest request =
        new ChatRequest(
            "gpt-x",
            "sys",
            List.of(
                ChatMessage.user("Read a"),
                ChatMessage.assistant(List.of(new ChatPart.Thinking("hidden", null), call)),
                ChatMessage.user(
                    List.of(
                        new ChatPart.ToolOutput("call_1", "1", false),
                        new ChatPart.Text("and then?")))),
            List.of(Chats.readFile()),
            100,
            null,
            Thinking.OFF);

    client.stream(provider, "k", request, new Heard(), Cancellation.NONE);

    assertThat(api.lastRequest().body().path("messages"))
        .isEqualTo(
            json(
                """
                [{"role":"system","content":"sys"},
                 {"role":"user","content":"Read a"},
                 {"role":"assistant","content":null,"tool_calls":[
                   {"id":"call_1","type":"function",
                    "function":{"name":"read_file","arguments":"{\\"path\\":\\"a\\"}"}}]},
                 {"role":"tool","tool_call_id":"call_1","content":"1"},
                 {"role":"user","content":"and then?"}]
                """));
  }

  @Test
  void stream_withoutAKey_sendsNoAuthorization_andReasoningIsHeardAsThinking() throws Exception {
    api.answers(reply().thinking("Two plus two is four.", null).text("4"));
    ModelProvider local =
        new ModelProvider(
            "ollama", ProviderKind.OPENAI_COMPATIBLE, URI.create(api.openAiUrl()), null);
    Heard heard = new Heard();

    Reply reply = client.stream(local, null, ask("llama3.1", "2+2?"), heard, Cancellation.NONE);

    assertThat(api.lastRequest().header("authorization")).isNull();
    assertThat(String.join("", heard.thinking)).isEqualTo("Two plus two is four.");
    assertThat(reply.parts())
        .containsExactly(
            new ChatPart.Thinking("Two plus two is four.", null), new ChatPart.Text("4"));
  }

  @Test
  void body_thinking_isReasoningEffort_offSendsNone_andOpenAisOwnApiGetsMaxCompletionTokens() {
    for (Thinking level : Thinking.values()) {
      ChatRequest request =
          new ChatRequest("m", null, List.of(ChatMessage.user("a")), List.of(), 300, null, level);
      JsonNode local = OpenAiWire.INSTANCE.body(request, provider.baseUrl(), true);
      JsonNode openai =
          OpenAiWire.INSTANCE.body(request, URI.create("https://api.openai.com/v1"), false);

      assertThat(local.has("reasoning_effort")).isEqualTo(level != Thinking.OFF);
      if (level != Thinking.OFF) {
        assertThat(local.path("reasoning_effort").asString()).isEqualTo(level.wireName());
      }
      assertThat(local.path("max_tokens").asInt()).isEqualTo(300);
      assertThat(openai.path("max_completion_tokens").asInt()).isEqualTo(300);
      assertThat(openai.has("max_tokens")).isFalse();
      assertThat(openai.has("stream")).isFalse();
    }
  }

  @Test
  void complete_withoutAStream_readsTextToolCallsAndUsage() throws Exception {
    api.answers(
        reply().text("Reading.").toolCall("call_7", "read_file", "{\"path\":\"x\"}").usage(40, 9));

    Reply reply = client.complete(provider, "k", ask("gpt-x", "x?"), Cancellation.NONE);

    assertThat(api.lastRequest().body().has("stream")).isFalse();
    assertThat(reply.parts())
        .containsExactly(
            new ChatPart.Text("Reading."),
            new ChatPart.ToolCall("call_7", "read_file", json("{\"path\":\"x\"}")));
    assertThat(reply.usage()).isEqualTo(new Usage(40, 9, 0, 0));
    assertThat(reply.stop()).isEqualTo(Reply.Stop.TOOL_USE);
  }

  @Test
  void stream_baseUrlWithoutV1_reachesChatCompletionsAtTheRoot() throws Exception {
    api.answers(text("ok").outOfTokens());
    ModelProvider root =
        new ModelProvider("vllm", ProviderKind.OPENAI_COMPATIBLE, URI.create(api.url()), null);

    Reply reply = client.stream(root, null, ask("m", "x"), new Heard(), Cancellation.NONE);

    assertThat(api.lastRequest().path()).isEqualTo("/chat/completions");
    assertThat(reply.stop()).isEqualTo(Reply.Stop.MAX_TOKENS);
  }
}
