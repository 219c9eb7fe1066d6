package dev.cortex.testing;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a turn of the {@link ScriptedAgent} does, read from its prompt (the language is described
 * there). A prompt that is not a JSON object is said back.
 *
 * @param malformed whether to print a line that is not JSON first
 * @param say what to say, in order
 * @param listTools whether to say the tools of every configured server
 * @param calls the tool calls, in order
 * @param sleepMs how long to wait after them (cut short when the turn is stopped)
 * @param awaitInject how many injected messages to wait for in all
 * @param awaitTimeoutMs how long to wait for them before the turn fails
 * @param echoInjected whether to say each injected message
 * @param exitWithoutEnd whether to exit (code 3) before the cost and end lines
 * @param cost the cost line, or null for none
 * @param fail the error to end with, or null to complete
 * @param session the id of the session line, or null for the turn's {@code resume}, else one made
 *     from the session id
 */
record Script(
    boolean malformed,
    List<String> say,
    boolean listTools,
    List<Call> calls,
    long sleepMs,
    int awaitInject,
    long awaitTimeoutMs,
    boolean echoInjected,
    boolean exitWithoutEnd,
    Cost cost,
    String fail,
    String session) {

  static final long DEFAULT_AWAIT_TIMEOUT_MS = 120_000;

  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static final Set<String> KEYS =
      Set.of(
          "malformed",
          "say",
          "list_tools",
          "calls",
          "sleep_ms",
          "await_inject",
          "await_timeout_ms",
          "echo_injected",
          "exit_without_end",
          "cost",
          "fail",
          "session");

  Script {
    say = List.copyOf(say);
    calls = List.copyOf(calls);
  }

  /**
   * One tool call.
   *
   * @param server the server's key in the MCP configuration, or null for its only server
   */
  record Call(String server, String tool, Map<String, Object> arguments) {}

  /** The cost line's fields. */
  record Cost(
      String model,
      long inputTokens,
      long outputTokens,
      long cacheReadTokens,
      long cacheWriteTokens,
      Double usd,
      String mode) {}

  /** A script that cannot be followed: the sentence says what to fix. */
  static final class BadScript extends Exception {
    private static final long serialVersionUID = 1L;

    BadScript(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The script of {@code prompt}.
   *
   * @param model the turn's model, the default cost's model (else {@code scripted})
   * @throws BadScript when the prompt is a JSON object that is no valid script
   */
  static Script parse(String prompt, String model) throws BadScript {
    Cost defaultCost = new Cost(model == null ? "scripted" : model, 0, 0, 0, 0, 0.0, "api");
    String trimmed = prompt.strip();
    if (!trimmed.startsWith("{")) {
      return said(prompt, defaultCost);
    }
    JsonNode node;
    try {
      node = JSON.readTree(trimmed);
    } catch (RuntimeException e) {
      throw new BadScript("the prompt starts with { but is not a JSON object");
    }
    if (node == null || !node.isObject()) {
      throw new BadScript("the prompt starts with { but is not a JSON object");
    }
    Set<String> unknown = new TreeSet<>();
    node.propertyNames()
        .forEach(
            k -> {
              if (!KEYS.contains(k)) {
                unknown.add(k);
              }
            });
    if (!unknown.isEmpty()) {
      throw new BadScript(
          "the script has unknown keys " + unknown + "; known keys: " + new TreeSet<>(KEYS));
    }
    return new Script(
        bool(node, "malformed"),
        strings(node.path("say")),
        bool(node, "list_tools"),
        calls(node.path("calls")),
        number(node, "sleep_ms", 0),
        (int) number(node, "await_inject", 0),
        number(node, "await_timeout_ms", DEFAULT_AWAIT_TIMEOUT_MS),
        bool(node, "echo_injected"),
        bool(node, "exit_without_end"),
        cost(node.path("cost"), defaultCost),
        text(node, "fail"),
        text(node, "session"));
  }

  private static Script said(String prompt, Cost cost) {
    return new Script(
        false,
        List.of(prompt),
        false,
        List.of(),
        0,
        0,
        DEFAULT_AWAIT_TIMEOUT_MS,
        false,
        false,
        cost,
        null,
        null);
  }

  private static boolean bool(JsonNode node, String key) throws BadScript {
    JsonNode value = node.path(key);
    if (value.isMissingNode() || value.isNull()) {
      return false;
    }
    if (!value.isBoolean()) {
      throw new BadScript(key + " must be true or false, got " + value);
    }
    return value.asBoolean();
  }

  private static long number(JsonNode node, String key, long otherwise) throws BadScript {
    JsonNode value = node.path(key);
    if (value.isMissingNode() || value.isNull()) {
      return otherwise;
    }
    if (!value.isIntegralNumber() || value.asLong() < 0) {
      throw new BadScript(key + " must be a whole number of at least 0, got " + value);
    }
    return value.asLong();
  }

  private static String text(JsonNode node, String key) throws BadScript {
    JsonNode value = node.path(key);
    if (value.isMissingNode() || value.isNull()) {
      return null;
    }
    if (!value.isString()) {
      throw new BadScript(key + " must be a string, got " + value);
    }
    return value.asString();
  }

  private static List<String> strings(JsonNode value) throws BadScript {
    List<String> out = new ArrayList<>();
    if (value.isMissingNode() || value.isNull()) {
      return out;
    }
    if (value.isString()) {
      out.add(value.asString());
      return out;
    }
    if (!value.isArray()) {
      throw new BadScript("say must be a string or an array of strings, got " + value);
    }
    for (JsonNode item : value) {
      if (!item.isString()) {
        throw new BadScript("say must be a string or an array of strings, got " + value);
      }
      out.add(item.asString());
    }
    return out;
  }

  private static List<Call> calls(JsonNode value) throws BadScript {
    List<Call> out = new ArrayList<>();
    if (value.isMissingNode() || value.isNull()) {
      return out;
    }
    if (!value.isArray()) {
      throw new BadScript("calls must be an array of calls, got " + value);
    }
    for (JsonNode call : value) {
      if (!call.isObject() || !call.path("tool").isString()) {
        throw new BadScript("each call needs a tool (a string), got " + call);
      }
      for (Iterator<String> keys = call.propertyNames().iterator(); keys.hasNext(); ) {
        String key = keys.next();
        if (!Set.of("server", "tool", "arguments").contains(key)) {
          throw new BadScript(
              "a call has the unknown key '" + key + "'; known keys: arguments, server, tool");
        }
      }
      JsonNode server = call.path("server");
      if (!server.isMissingNode() && !server.isNull() && !server.isString()) {
        throw new BadScript("a call's server must be a string, got " + server);
      }
      JsonNode arguments = call.path("arguments");
      if (!arguments.isMissingNode() && !arguments.isNull() && !arguments.isObject()) {
        throw new BadScript("a call's arguments must be an object, got " + arguments);
      }
      out.add(
          new Call(
              server.isString() ? server.asString() : null,
              call.path("tool").asString(),
              arguments.isObject()
                  ? JSON.convertValue(arguments, new TypeReference<Map<String, Object>>() {})
                  : Map.of()));
    }
    return out;
  }

  private static Cost cost(JsonNode value, Cost otherwise) throws BadScript {
    if (value.isMissingNode() || value.isNull()) {
      return otherwise;
    }
    if (value.isBoolean()) {
      return value.asBoolean() ? otherwise : null;
    }
    if (!value.isObject()) {
      throw new BadScript("cost must be an object, true or false, got " + value);
    }
    String mode = value.path("mode").asString(otherwise.mode());
    if (!mode.equals("api") && !mode.equals("plan")) {
      throw new BadScript("cost.mode must be api or plan, got " + value.path("mode"));
    }
    Double usd = 0.0;
    if (value.has("usd")) {
      usd = value.path("usd").isNumber() ? Double.valueOf(value.path("usd").asDouble()) : null;
    }
    return new Cost(
        value.path("model").asString(otherwise.model()),
        value.path("input_tokens").asLong(0),
        value.path("output_tokens").asLong(0),
        value.path("cache_read_tokens").asLong(0),
        value.path("cache_write_tokens").asLong(0),
        usd,
        mode);
  }
}
