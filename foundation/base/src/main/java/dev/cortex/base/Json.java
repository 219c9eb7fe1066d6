package dev.cortex.base;

import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

/**
 * The JSON mapper for tool arguments and results: snake_case names, unknown properties rejected.
 * Built on first use so that start-up does not pay for it.
 */
public final class Json {
  private Json() {}

  private static final class Holder {
    static final JsonMapper MAPPER =
        JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();
  }

  /** The shared mapper for tool payloads. */
  public static JsonMapper mapper() {
    return Holder.MAPPER;
  }

  /** Converts a record or map into a JSON tree. */
  public static JsonNode tree(Object value) {
    return mapper().valueToTree(value);
  }

  /** Serialises any value as compact JSON. */
  public static String write(Object value) {
    return mapper().writeValueAsString(value);
  }

  /** Serialises any value as indented JSON, for people. */
  public static String writePretty(Object value) {
    return mapper().writerWithDefaultPrettyPrinter().writeValueAsString(value);
  }
}
