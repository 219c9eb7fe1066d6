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
 * permission prompts bypassed, and the built-in tools whose replacements the session's MCP server
 * serves taken away.
 *
 * @param command the program and its arguments
 * @param environment the request's environment plus {@code CLAUDE_CONFIG_DIR}, {@code
 *     MCP_TOOL_TIMEOUT} and, on a host declared a sandbox, {@code IS_SANDBOX}
 */
record ClaudeSpawn(List<String> command, Map<String, String> environment) {
  /** The deadline of an MCP call, in ms: the seed's 30 minutes 30 seconds. */
  static final String MCP_TOOL_TIMEOUT_MS = "1830000";

  /**
   * Claude Code's built-in tools that a Cortex tool replaces, each with that tool: its subagent
   * tool ({@code Agent}, named {@code Task} before) by {@code core}'s {@code agent}, its question
   * and plan tools by the {@code interaction} group's. A built-in tool is taken away only when the
   * session's composition serves its replacement: taking it away otherwise leaves the agent without
   * either.
   */
  static final Map<String, String> REPLACED_BY = replacements();

  private static Map<String, String> replacements() {
    Map<String, String> replaced = new LinkedHashMap<>();
    replaced.put("Agent", "agent");
    replaced.put("Task", "agent");
    replaced.put("AskUserQuestion", "cortex_ask_user");
    replaced.put("EnterPlanMode", "cortex_plan_enter");
    replaced.put("ExitPlanMode", "cortex_plan_exit");
    return java.util.Collections.unmodifiableMap(replaced);
  }

  /**
   * The agent server's setting for hosts that are sandboxes (a container or VM of its own): a
   * server running as root may then run Claude Code, which is told so by its own {@code
   * IS_SANDBOX=1}.
   */
  static final String SANDBOX_SETTING = "CORTEX_CLAUDE_SANDBOX";

  ClaudeSpawn {
    command = List.copyOf(command);
    environment = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(environment));
  }

  /** The spawn of {@code request} when the session's composition serves no replacement tool. */
  static ClaudeSpawn of(TurnRequest request, String executable, Path configDir) {
    return of(request, executable, configDir, java.util.Set.of());
  }

  /**
   * The spawn of {@code request} with the {@code claude} program at {@code executable}, Claude
   * Code's configuration in {@code configDir}, and the tools the session's MCP server serves
   * ({@code served}), which decide the built-in tools taken away.
   */
  static ClaudeSpawn of(
      TurnRequest request, String executable, Path configDir, java.util.Set<String> served) {
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
    if (request.plugins().mcpConfig() != null) {
      // Layered after Cortex's own; --strict-mcp-config (a none session) never has plugins.
      argv.add(request.plugins().mcpConfig().toString());
    }
    if (request.strictMcpConfig()) {
      argv.add("--strict-mcp-config");
    }
    for (Path skills : request.plugins().skillDirs()) {
      argv.add("--plugin-dir");
      argv.add(skills.toString());
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
        List.of("--dangerously-skip-permissions", "--permission-mode", "bypassPermissions"));
    List<String> disallowed = disallowedTools(served);
    if (!disallowed.isEmpty()) {
      argv.add("--disallowedTools");
      argv.add(String.join(",", disallowed));
    }
    Map<String, String> env = new LinkedHashMap<>(request.environment());
    env.put("CLAUDE_CONFIG_DIR", configDir.toString());
    env.put("MCP_TOOL_TIMEOUT", MCP_TOOL_TIMEOUT_MS);
    String budget = thinkingBudget(request.environment().get("CORTEX_THINKING"));
    if (budget != null) {
      env.put("MAX_THINKING_TOKENS", budget);
    }
    if (sandboxed(request.environment())) {
      env.put("IS_SANDBOX", "1");
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

  /** Whether {@link #SANDBOX_SETTING} is on ({@code 1} or {@code true}) in {@code environment}. */
  static boolean sandboxed(Map<String, String> environment) {
    String value = environment.getOrDefault(SANDBOX_SETTING, "").strip();
    return value.equals("1") || value.equalsIgnoreCase("true");
  }

  /** The built-in tools to take away: those whose replacement is among {@code served}. */
  static List<String> disallowedTools(java.util.Set<String> served) {
    List<String> tools = new ArrayList<>();
    REPLACED_BY.forEach(
        (builtIn, replacement) -> {
          if (served.contains(replacement)) {
            tools.add(builtIn);
          }
        });
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
