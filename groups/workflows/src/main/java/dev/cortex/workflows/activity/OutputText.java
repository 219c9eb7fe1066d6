package dev.cortex.workflows.activity;

import dev.cortex.base.Json;
import dev.cortex.workflows.jq.Template;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;

/** How activities read inputs and turn outputs into summaries and messages. */
final class OutputText {
  private static final int MESSAGE_DETAIL = 200;
  private static final Pattern CLASS_NAME =
      Pattern.compile("\\b(?:[a-z][a-z0-9_]*\\.)+[A-Z][A-Za-z0-9_$]*(?:Exception|Error)\\b:?\\s*");

  private OutputText() {}

  /** The value of {@code key} in a step's {@code with} as written, when it is a literal string. */
  static Optional<String> literal(Map<?, ?> with, String key) {
    Object value = with.get(key);
    if (value instanceof String text && isLiteral(text)) {
      return Optional.of(text);
    }
    return Optional.empty();
  }

  /** Whether {@code text} holds no template, so that it is what the step will see. */
  static boolean isLiteral(String text) {
    return Template.expressions(text).isEmpty();
  }

  /** The schema of an object whose values are all strings (environment variables, headers). */
  static Map<String, Object> stringMap(String description) {
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("description", description);
    schema.put("additionalProperties", Map.of("type", "string"));
    return schema;
  }

  /**
   * {@code text} as one JSON value.
   *
   * @throws IllegalArgumentException with a reason fit for the workflow author
   */
  static JsonNode parseJson(String text) {
    if (text.isBlank()) {
      throw new IllegalArgumentException("it is empty");
    }
    try {
      return Json.mapper()
          .readerFor(JsonNode.class)
          .with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .readValue(text);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(firstLine(e.getOriginalMessage()), e);
    }
  }

  /** {@code message} without the Java class names some libraries put in their messages. */
  static String withoutClassNames(String message) {
    if (message == null) {
      return "";
    }
    return CLASS_NAME.matcher(message).replaceAll("").strip();
  }

  /** The last line of {@code text} that is not blank, shortened for a message; empty if none. */
  static String lastLine(String text) {
    String last = "";
    for (String line : text.lines().toList()) {
      if (!line.isBlank()) {
        last = line.strip();
      }
    }
    return shorten(last);
  }

  static String firstLine(String text) {
    if (text == null) {
      return "";
    }
    return shorten(text.lines().filter(line -> !line.isBlank()).findFirst().orElse("").strip());
  }

  /** {@code text} cut to at most 200 characters. */
  static String shorten(String text) {
    if (text.length() <= MESSAGE_DETAIL) {
      return text;
    }
    return text.substring(0, MESSAGE_DETAIL - 3) + "...";
  }

  /** "1 row", "3 rows". */
  static String count(long n, String noun) {
    return n + " " + (n == 1 ? noun : noun + "s");
  }

  /** A size for people: "512 B", "3.1 KB", "2.0 MB". */
  static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    if (bytes < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
    }
    return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024.0));
  }
}
