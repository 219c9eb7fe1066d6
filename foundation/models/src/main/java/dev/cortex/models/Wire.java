package dev.cortex.models;

import java.net.URI;
import java.net.http.HttpRequest;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/** How requests and answers look on one provider kind's API. */
interface Wire {
  /** The endpoint of chats under {@code baseUrl}. */
  URI endpoint(URI baseUrl);

  /** Adds the authorization (and version) headers; {@code key} is null for a keyless server. */
  void authorize(HttpRequest.Builder request, String key);

  /** The body of {@code request}, asking for a stream of events or for one answer. */
  ObjectNode body(ChatRequest request, URI baseUrl, boolean stream);

  /** A decoder for the events of one streamed answer. */
  Decoder decoder(String api, String key, StreamListener listener);

  /**
   * The answer in a body of one answer.
   *
   * @throws ModelFailure BAD_ANSWER when the body lacks the answer's place
   */
  Reply reply(JsonNode body, String api, String requestedModel) throws ModelFailure;

  /** The wire of {@code kind}. */
  static Wire of(ProviderKind kind) {
    return switch (kind) {
      case ANTHROPIC -> AnthropicWire.INSTANCE;
      case OPENAI_COMPATIBLE -> OpenAiWire.INSTANCE;
    };
  }

  /** The events of one streamed answer, turned into a {@link Reply}. */
  interface Decoder extends dev.cortex.base.EventStream.Handler<ModelFailure> {
    /**
     * The whole answer, once the stream said it is complete.
     *
     * @throws ModelFailure NETWORK when the stream ended before the answer did
     */
    Reply reply(String requestedModel) throws ModelFailure;
  }

  /** {@code base} with {@code path} appended, one slash between them. */
  static URI append(URI base, String path) {
    String text = base.toString();
    while (text.endsWith("/")) {
      text = text.substring(0, text.length() - 1);
    }
    return URI.create(text + path);
  }
}
