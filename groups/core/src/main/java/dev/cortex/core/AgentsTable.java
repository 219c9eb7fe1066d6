package dev.cortex.core;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import dev.cortex.protocol.webhook.SubagentRoles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * The {@code [agents]} table of {@code cortex.toml}: subagent roles, one sub-table each ({@code
 * [agents.reviewer]}), with {@code description}, {@code system_prompt}, {@code backend}, {@code
 * model} and {@code tools} (an array of tool names), every key optional. A role here may replace a
 * built-in one; a role file of {@code config/agents/} replaces one here.
 */
public final class AgentsTable {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final Pattern TOOL = Pattern.compile("[A-Za-z0-9_-]{1,128}");
  private static final Set<String> KEYS =
      Set.of("description", "system_prompt", "backend", "model", "tools");

  private AgentsTable() {}

  public static final SettingsTable<List<SubagentRoles.Role>> TABLE =
      SettingsTable.open("agents", AgentsTable::read);

  private static List<SubagentRoles.Role> read(TableValues values) {
    List<SubagentRoles.Role> roles = new ArrayList<>();
    for (String name : values.keys()) {
      roles.add(role(values, name));
    }
    if (roles.size() > SubagentRoles.MAX_ROLES) {
      throw values.problem(
          roles.get(SubagentRoles.MAX_ROLES).name(),
          "at most " + SubagentRoles.MAX_ROLES + " roles");
    }
    return List.copyOf(roles);
  }

  private static SubagentRoles.Role role(TableValues values, String name) {
    if (!NAME.matcher(name).matches()) {
      throw values.problem(name, "a role's name is 1-64 letters, digits, '.', '_' or '-'");
    }
    Map<String, JsonNode> entries = values.table(name);
    for (String key : entries.keySet()) {
      if (!KEYS.contains(key)) {
        throw values.problem(
            name, key, "unknown key (known: backend, description, model, system_prompt, tools)");
      }
    }
    List<String> tools = null;
    JsonNode listed = entries.get("tools");
    if (listed != null) {
      if (!listed.isArray() || listed.isEmpty()) {
        throw values.problem(name, "tools", "expected a non-empty array of tool names");
      }
      tools = new ArrayList<>();
      for (JsonNode tool : listed) {
        if (!tool.isString() || !TOOL.matcher(tool.asString()).matches()) {
          throw values.problem(name, "tools", "'" + tool + "' is not a tool name");
        }
        tools.add(tool.asString());
      }
    }
    String description = text(values, name, entries, "description");
    String prompt = text(values, name, entries, "system_prompt");
    return new SubagentRoles.Role(
        name,
        description == null ? "The " + name + " role." : description,
        prompt == null ? "" : prompt.strip(),
        text(values, name, entries, "backend"),
        text(values, name, entries, "model"),
        tools);
  }

  private static String text(
      TableValues values, String name, Map<String, JsonNode> entries, String key) {
    JsonNode value = entries.get(key);
    if (value == null) {
      return null;
    }
    if (!value.isString() || value.asString().isBlank()) {
      throw values.problem(name, key, "expected a non-empty string");
    }
    return value.asString();
  }
}
