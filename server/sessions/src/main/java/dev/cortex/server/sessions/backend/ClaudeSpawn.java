package dev.cortex.server.sessions.backend;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The command line and environment of one Claude Code turn: print mode with stream-json in and out
 * (user messages echoed back when Claude Code takes them in), the session's MCP configuration,
 * permission prompts bypassed, and the built-in tools Cortex replaces taken away.
 *
 * @param command the program and its arguments
 * @param environment the request's environment plus {@code CLAUDE_CONFIG_DIR} and {@code
 *     MCP_TOOL_TIMEOUT}
 */
record ClaudeSpawn(List<String> command, Map<String, String> environment) {
  /** The deadline of an MCP call, in ms: the seed's 30 minutes 30 seconds. */
  static final String MCP_TOOL_TIMEOUT_MS = "1830000";

  /**
   * Built-in tools taken away on every spawn: Claude Code's own subagent tool ({@code Agent}, named
   * {@code Task} before), which Cortex's {@code agent} tool replaces.
   */
  static final List<String> ALWAYS_DISALLOWED = List.of("Agent", "Task");

  /**
   * Built-in tools taken away when the composition includes the {@code interaction} group, whose
   * tools ask the person and submit plans instead.
   */
  static final List<String> INTERACTION_DISALLOWED =
      List.of("AskUserQuestion", "EnterPlanMode", "ExitPlanMode");

  ClaudeSpawn {
    command = List.copyOf(command);
    environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
  }

  /**
   * The spawn of {@code request} with the {@code claude} program at {@code executable} and Claude
   * Code's configuration in {@code configDir}.
   */
  static ClaudeSpawn of(TurnRequest request, String executable, Path configDir) {
    List<String> argv = new ArrayList<>();
    argv.add(executable);
    argv.addAll(
        List.of(
            "--print",
            "--input-format",
            "stream-json",
            "--output-format",
            "stream-json",
            "--verbose",
            "--replay-user-messages",
            "--mcp-config",
            request.mcpConfig().toString()));
    if (request.strictMcpConfig()) {
      argv.add("--strict-mcp-config");
    }
    if (present(request.resume())) {
      argv.add("--resume");
      argv.add(request.resume());
    }
    if (present(request.model())) {
      argv.add("--model");
      argv.add(request.model());
    }
    argv.addAll(
        List.of(
            "--dangerously-skip-permissions",
            "--permission-mode",
            "bypassPermissions",
            "--disallowedTools",
            String.join(",", disallowedTools(request.environment()))));
    Map<String, String> env = new LinkedHashMap<>(request.environment());
    env.put("CLAUDE_CONFIG_DIR", configDir.toString());
    env.put("MCP_TOOL_TIMEOUT", MCP_TOOL_TIMEOUT_MS);
    String budget = thinkingBudget(request.environment().get("CORTEX_THINKING"));
    if (budget != null) {
      env.put("MAX_THINKING_TOKENS", budget);
    }
    return new ClaudeSpawn(argv, env);
  }

  /**
   * Claude Code's thinking budget ({@code MAX_THINKING_TOKENS}) for a session's level: the same
   * budgets as the {@code api} backend gives Anthropic models; {@code off} is 0; null (the
   * session's default) leaves Claude Code's own.
   */
  static String thinkingBudget(String level) {
    if (level == null) {
      return null;
    }
    return switch (level) {
      case "off" -> "0";
      case "low" -> "2048";
      case "medium" -> "8192";
      case "high" -> "24576";
      default -> null;
    };
  }

  /** The built-in tools to take away, given the session's environment. */
  static List<String> disallowedTools(Map<String, String> environment) {
    List<String> tools = new ArrayList<>(ALWAYS_DISALLOWED);
    if (bundles(environment.get("CORTEX_MCP_BUNDLES")).contains("interaction")) {
      tools.addAll(INTERACTION_DISALLOWED);
    }
    return tools;
  }

  /**
   * The group names of a {@code CORTEX_MCP_BUNDLES} value (a comma list or a JSON array; {@code
   * cortex-} prefixes and the seed's {@code cortex-interaction-bridge} server key accepted); a
   * value that cannot be read selects nothing here (the session's MCP server refuses it on its
   * own).
   */
  static List<String> bundles(String value) {
    List<String> names = new ArrayList<>();
    if (value == null || value.isBlank()) {
      return names;
    }
    String trimmed = value.trim();
    if (trimmed.startsWith("[")) {
      try {
        for (JsonNode item : BackendJson.MAPPER.readTree(trimmed)) {
          if (item.isString()) {
            names.add(groupName(item.asString()));
          }
        }
      } catch (RuntimeException e) {
        return List.of();
      }
    } else {
      for (String part : trimmed.split(",")) {
        if (!part.isBlank()) {
          names.add(groupName(part));
        }
      }
    }
    return names;
  }

  private static String groupName(String raw) {
    String name = raw.trim().toLowerCase(Locale.ROOT);
    if (name.startsWith("cortex-")) {
      name = name.substring("cortex-".length());
    }
    return name.equals("interaction-bridge") ? "interaction" : name;
  }

  private static boolean present(String value) {
    return value != null && !value.isBlank();
  }
}
