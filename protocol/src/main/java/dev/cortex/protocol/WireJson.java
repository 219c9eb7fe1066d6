package dev.cortex.protocol;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cortex.protocol.hub.HubMessage;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON of the protocol: snake_case names, unknown fields ignored (a v1 peer tolerates additions),
 * and {@link HubMessage}s tagged by {@code type}.
 */
public final class WireJson {
  private WireJson() {}

  private static final class Holder {
    static final JsonMapper MAPPER =
        JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .disable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .changeDefaultPropertyInclusion(
                inclusion -> inclusion.withValueInclusion(JsonInclude.Include.NON_NULL))
            .build();
  }

  public static JsonMapper mapper() {
    return Holder.MAPPER;
  }

  /** A hub message as one JSON object. */
  public static String write(HubMessage message) {
    ObjectNode node = mapper().valueToTree(message);
    ObjectNode tagged = mapper().createObjectNode();
    tagged.put("type", message.type());
    tagged.setAll(node);
    return mapper().writeValueAsString(tagged);
  }

  /** A message of a type this build does not know: a later version's, which a v1 peer ignores. */
  public static final class UnknownType extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    UnknownType(String type) {
      super("unknown message type '" + type + "'");
    }
  }

  /**
   * Reads a hub message.
   *
   * @throws UnknownType when the message has a type this build does not know
   * @throws IllegalArgumentException when the text is no message of this protocol, or a malformed
   *     one
   */
  public static HubMessage read(String text) {
    JsonNode node;
    try {
      node = mapper().readTree(text);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    Class<? extends HubMessage> type =
        switch (node.path("type").asString("")) {
          case "hello" -> HubMessage.Hello.class;
          case "welcome" -> HubMessage.Welcome.class;
          case "heartbeat" -> HubMessage.Heartbeat.class;
          case "command" -> HubMessage.Command.class;
          case "output" -> HubMessage.Output.class;
          case "result" -> HubMessage.Result.class;
          case "cancel" -> HubMessage.Cancel.class;
          case "signal" -> HubMessage.SignalFile.class;
          case "signal_ack" -> HubMessage.SignalAck.class;
          default -> throw new UnknownType(node.path("type").asString(""));
        };
    ObjectNode fields = ((ObjectNode) node).deepCopy();
    fields.remove("type");
    try {
      return mapper().treeToValue(fields, type);
    } catch (JacksonException | NullPointerException e) {
      throw new IllegalArgumentException(
          "malformed " + type.getSimpleName() + ": " + e.getMessage());
    }
  }

  /**
   * Binds {@code params} to the record of {@code type}.
   *
   * @throws IllegalArgumentException naming the field that does not fit (its JSON path), in words a
   *     peer may be shown: never the mapper's own text, which speaks of Java types
   */
  public static <T> T bind(JsonNode params, Class<T> type) {
    try {
      return mapper().treeToValue(params == null ? mapper().createObjectNode() : params, type);
    } catch (JacksonException e) {
      String field = field(e);
      throw new IllegalArgumentException(
          "malformed "
              + type.getSimpleName()
              + (field.isEmpty()
                  ? ": not an object of its fields"
                  : ": '" + field + "' is not of the expected type"));
    }
  }

  /** The JSON path of the field a binding failed at, e.g. {@code agents_md[0].path}; or "". */
  public static String field(JacksonException e) {
    StringBuilder path = new StringBuilder();
    for (JacksonException.Reference reference : e.getPath()) {
      if (reference.getPropertyName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(reference.getPropertyName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    return path.toString();
  }

  /** Any record as a JSON tree. */
  public static JsonNode tree(Object value) {
    return mapper().valueToTree(value);
  }
}
