package dev.cortex.models;

import dev.cortex.base.Json;
import java.math.BigDecimal;
import java.net.http.HttpHeaders;
import java.time.Clock;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Turns what a model API answered instead of an answer into a classified {@link ModelFailure}: the
 * HTTP status and the error's type decide the kind, {@code retry-after-ms} or {@code retry-after}
 * (seconds or an HTTP date) how long to wait, and the provider's own message, shortened, the
 * sentence. A key never reaches a message: callers pass it to be taken out wherever it appears.
 */
final class Failures {
  /** The most characters of the provider's own message a failure repeats. */
  static final int MESSAGE_LIMIT = 500;

  /** The most characters of an error answer kept for callers that show it ({@code llm} steps). */
  static final int ANSWER_LIMIT = 16_384;

  /** Messages of context-window refusals, of Anthropic and of OpenAI-compatible servers. */
  private static final Pattern CONTEXT =
      Pattern.compile(
          "prompt is too long|maximum context length|context length|context window|context size",
          Pattern.CASE_INSENSITIVE);

  private Failures() {}

  /**
   * The failure of an answer with a status other than 2xx.
   *
   * @param api who answered, for the sentence: {@code anthropic} reads "the anthropic API"
   */
  static ModelFailure ofStatus(
      String api, int status, HttpHeaders headers, String body, String key, Clock clock) {
    JsonNode json = readJson(body);
    String type = errorType(json);
    String message = errorMessage(json, body);
    ModelFailure.Kind kind = kind(status, type, message);
    String sentence =
        status >= 300 && status < 400
            ? "the "
                + api
                + " API answered HTTP "
                + status
                + ", a redirect, which is not followed: check the provider's base URL"
            : "the " + api + " API answered HTTP " + status + ": " + shorten(message);
    return new ModelFailure(
        kind, status, retryAfter(headers, clock), scrub(sentence, key), scrub(capped(body), key));
  }

  /** The failure an error event reports in the middle of a stream (the HTTP status was 200). */
  static ModelFailure ofStreamError(String api, JsonNode error, String key) {
    String type = error.path("type").asString("");
    if (type.isEmpty() || type.equals("error")) {
      type = errorType(error);
    }
    String message = errorMessage(error, null);
    ModelFailure.Kind kind = kindOfType(type).orElse(ModelFailure.Kind.SERVER);
    if (CONTEXT.matcher(message).find()) {
      kind = ModelFailure.Kind.CONTEXT_TOO_LONG;
    }
    return new ModelFailure(
        kind,
        0,
        null,
        scrub(
            "the "
                + api
                + " API broke off its answer: "
                + shorten(message)
                + (type.isEmpty() ? "" : " (" + type + ")"),
            key),
        scrub(capped(Json.write(error)), key));
  }

  static ModelFailure badAnswer(String api, String what) {
    return new ModelFailure(
        ModelFailure.Kind.BAD_ANSWER, 0, null, "the " + api + " API " + what, null);
  }

  static ModelFailure kind(ModelFailure.Kind kind, String message, String key) {
    return new ModelFailure(kind, 0, null, scrub(message, key), null);
  }

  /** The kind of a non-2xx answer. */
  static ModelFailure.Kind kind(int status, String type, String message) {
    if (status == 429) {
      return ModelFailure.Kind.RATE_LIMITED;
    }
    if (status == 529 || "overloaded_error".equals(type)) {
      return ModelFailure.Kind.OVERLOADED;
    }
    if (status == 408) {
      return ModelFailure.Kind.TIMEOUT;
    }
    if (status >= 500) {
      return ModelFailure.Kind.SERVER;
    }
    if (status == 401 || status == 403) {
      return ModelFailure.Kind.AUTH;
    }
    if (status >= 400
        && ("context_length_exceeded".equals(type) || CONTEXT.matcher(message).find())) {
      return ModelFailure.Kind.CONTEXT_TOO_LONG;
    }
    if (status >= 400) {
      return ModelFailure.Kind.INVALID_REQUEST;
    }
    // a redirect (never followed) or an informational status: not a place that answers
    return ModelFailure.Kind.INVALID_REQUEST;
  }

  /** The kind an error's type names, for errors without a status (in a stream). */
  private static Optional<ModelFailure.Kind> kindOfType(String type) {
    return Optional.ofNullable(
        switch (type) {
          case "overloaded_error" -> ModelFailure.Kind.OVERLOADED;
          case "rate_limit_error", "rate_limit_exceeded", "insufficient_quota" ->
              ModelFailure.Kind.RATE_LIMITED;
          case "api_error", "server_error" -> ModelFailure.Kind.SERVER;
          case "authentication_error", "permission_error", "invalid_api_key" ->
              ModelFailure.Kind.AUTH;
          case "context_length_exceeded" -> ModelFailure.Kind.CONTEXT_TOO_LONG;
          case "invalid_request_error", "not_found_error", "request_too_large" ->
              ModelFailure.Kind.INVALID_REQUEST;
          default -> null;
        });
  }

  /**
   * How long the answer asks to wait: {@code retry-after-ms} (milliseconds), else {@code
   * retry-after} in seconds or as an HTTP date; null when neither is there or readable.
   */
  static Duration retryAfter(HttpHeaders headers, Clock clock) {
    Optional<String> millis = headers.firstValue("retry-after-ms");
    if (millis.isPresent()) {
      Duration wait = number(millis.get(), 3);
      if (wait != null) {
        return wait;
      }
    }
    Optional<String> after = headers.firstValue("retry-after");
    if (after.isEmpty()) {
      return null;
    }
    Duration seconds = number(after.get(), 0);
    if (seconds != null) {
      return seconds;
    }
    try {
      ZonedDateTime at =
          ZonedDateTime.parse(after.get().strip(), DateTimeFormatter.RFC_1123_DATE_TIME);
      Duration wait = Duration.between(clock.instant(), at.toInstant());
      return wait.isNegative() ? Duration.ZERO : wait;
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** A non-negative number of seconds ({@code shift} 0) or milliseconds ({@code shift} 3). */
  private static Duration number(String text, int shift) {
    try {
      BigDecimal value = new BigDecimal(text.strip());
      if (value.signum() < 0) {
        return Duration.ZERO;
      }
      BigDecimal nanos = value.movePointRight(9 - shift);
      return Duration.ofNanos(nanos.min(BigDecimal.valueOf(Long.MAX_VALUE)).longValue());
    } catch (NumberFormatException | ArithmeticException e) {
      return null;
    }
  }

  /** The error's type or code: Anthropic's {@code error.type}, OpenAI's {@code error.code}. */
  private static String errorType(JsonNode json) {
    if (json == null) {
      return "";
    }
    JsonNode error = json.path("error").isObject() ? json.path("error") : json;
    for (String field : new String[] {"code", "type"}) {
      JsonNode value = error.path(field);
      if (value.isString() && !value.asString().isBlank() && !value.asString().equals("error")) {
        if (field.equals("code") && !value.asString().equals("context_length_exceeded")) {
          continue; // codes other than this one say less than the type
        }
        return value.asString();
      }
    }
    return "";
  }

  /** The provider's own message: {@code error.message}, else the body as it came. */
  static String errorMessage(JsonNode json, String raw) {
    if (json != null) {
      JsonNode error = json.path("error");
      if (error.path("message").isString()) {
        return error.path("message").asString();
      }
      if (error.isString()) {
        return error.asString();
      }
      if (json.path("message").isString()) {
        return json.path("message").asString();
      }
    }
    return raw == null || raw.isBlank() ? "no message" : raw.strip();
  }

  static JsonNode readJson(String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      JsonNode node = Json.mapper().readTree(text);
      return node == null || node.isMissingNode() ? null : node;
    } catch (JacksonException e) {
      return null;
    }
  }

  /** {@code message} cut to {@value #MESSAGE_LIMIT} characters. */
  static String shorten(String message) {
    String line = message.strip();
    return line.length() <= MESSAGE_LIMIT ? line : line.substring(0, MESSAGE_LIMIT) + "…";
  }

  private static String capped(String body) {
    if (body == null) {
      return null;
    }
    return body.length() <= ANSWER_LIMIT ? body : body.substring(0, ANSWER_LIMIT);
  }

  /** Shorter keys are not looked for (they would match ordinary words); real keys are longer. */
  static final int MIN_KEY = 8;

  /** {@code text} without {@code key}, wherever it appears. */
  static String scrub(String text, String key) {
    if (text == null || key == null || key.length() < MIN_KEY) {
      return text;
    }
    return text.replace(key, "[redacted]");
  }

  /** The name of an exception's class, for a message when it says nothing itself. */
  static String describe(Throwable failure) {
    String message = failure.getMessage();
    return message != null && !message.isBlank()
        ? message.strip()
        : failure.getClass().getSimpleName();
  }
}
