package dev.cortex.protocol.webhook;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The roles a subagent may take ({@code subagent_type}): the built-in ones, those of {@code
 * cortex.toml}'s {@code [agents]} table, and those of {@code $CORTEX_HOME/config/agents/*.md} (a
 * file's name is its role's; a file may replace a built-in role). A role file is an optional front
 * matter between {@code ---} lines ({@code description:}, {@code backend:}, {@code model:}, {@code
 * tools:} a comma-separated allowlist) and the system prompt after it. A file that cannot be read
 * or is malformed is left out, with a problem the server logs. At most {@link #MAX_ROLES} roles are
 * kept, built-in ones first.
 */
public final class SubagentRoles {
  /** The most roles kept (and listed in the {@code agent} tool's description). */
  public static final int MAX_ROLES = 24;

  /** The most models the {@code agent} tool's description lists. */
  public static final int MAX_MODELS = 32;

  /** The largest role file read. */
  static final int MAX_FILE = 64 * 1024;

  /** The environment variables that name the models subagents may use, by backend. */
  public static final Map<String, String> MODEL_VARIABLES =
      Map.of(
          "claude", "CORTEX_SUBAGENT_CLAUDE_MODELS",
          "pi", "CORTEX_SUBAGENT_PI_MODELS");

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final Pattern TOOL = Pattern.compile("[A-Za-z0-9_-]{1,128}");

  /**
   * A role.
   *
   * @param systemPrompt what the subagent is told before its prompt ({@code ""} for nothing)
   * @param backend null for the call's choice, else the parent's backend
   * @param model null for the call's choice, else the backend's default
   * @param tools the role's allowlist (null: every tool a subagent may have)
   */
  public record Role(
      String name,
      String description,
      String systemPrompt,
      String backend,
      String model,
      List<String> tools) {
    public Role {
      tools = tools == null ? null : List.copyOf(tools);
    }
  }

  /** The built-in roles. */
  public static final List<Role> BUILT_IN =
      List.of(
          new Role(
              "general-purpose",
              "Any self-contained task: research, changes, checks; it has every tool a subagent"
                  + " may have.",
              "",
              null,
              null,
              null),
          new Role(
              "explore",
              "Finds and reads things on the devices and reports what it found; it changes"
                  + " nothing.",
              "",
              null,
              null,
              List.of("remote_read", "remote_glob", "remote_grep", "current_time")));

  private final Map<String, Role> roles;
  private final List<String> problems;

  private SubagentRoles(Map<String, Role> roles, List<String> problems) {
    this.roles = roles;
    this.problems = List.copyOf(problems);
  }

  /** The built-in roles and those of {@code configDir/agents/*.md}. */
  public static SubagentRoles load(Path configDir) {
    return load(configDir, List.of());
  }

  /**
   * The built-in roles, then {@code configured} ({@code cortex.toml}'s {@code [agents]}), then
   * those of {@code configDir/agents/*.md}; a later role replaces an earlier one of its name.
   */
  public static SubagentRoles load(Path configDir, List<Role> configured) {
    Map<String, Role> roles = new LinkedHashMap<>();
    BUILT_IN.forEach(r -> roles.put(r.name(), r));
    for (Role role : configured) {
      if (roles.containsKey(role.name()) || roles.size() < MAX_ROLES) {
        roles.put(role.name(), role);
      }
    }
    List<String> problems = new ArrayList<>();
    Path dir = configDir.resolve("agents");
    if (Files.isDirectory(dir)) {
      List<Path> files = new ArrayList<>();
      try (DirectoryStream<Path> listing = Files.newDirectoryStream(dir, "*.md")) {
        listing.forEach(files::add);
      } catch (IOException e) {
        problems.add("config/agents cannot be listed");
      }
      files.sort(null);
      for (Path file : files) {
        String name = file.getFileName().toString();
        name = name.substring(0, name.length() - 3);
        if (!NAME.matcher(name).matches()) {
          problems.add("config/agents/" + file.getFileName() + ": not a role name");
          continue;
        }
        if (!roles.containsKey(name) && roles.size() >= MAX_ROLES) {
          problems.add("config/agents/" + file.getFileName() + ": over " + MAX_ROLES + " roles");
          continue;
        }
        try {
          roles.put(name, parse(name, read(file)));
        } catch (IllegalArgumentException | IOException e) {
          problems.add("config/agents/" + file.getFileName() + ": " + e.getMessage());
        }
      }
    }
    return new SubagentRoles(roles, problems);
  }

  private static String read(Path file) throws IOException {
    if (Files.size(file) > MAX_FILE) {
      throw new IOException("larger than 64 KB");
    }
    return Files.readString(file, StandardCharsets.UTF_8);
  }

  /** A role from its file's text. */
  static Role parse(String name, String text) {
    String body = text.replace("\r\n", "\n");
    Map<String, String> front = new LinkedHashMap<>();
    if (body.startsWith("---\n")) {
      int end = body.indexOf("\n---", 3);
      if (end < 0) {
        throw new IllegalArgumentException("its front matter has no closing ---");
      }
      for (String line : body.substring(4, end).split("\n")) {
        if (line.isBlank() || line.strip().startsWith("#")) {
          continue;
        }
        int colon = line.indexOf(':');
        if (colon < 0) {
          throw new IllegalArgumentException("'" + cut(line) + "' is not KEY: VALUE");
        }
        String key = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
        if (!List.of("name", "description", "backend", "model", "tools").contains(key)) {
          throw new IllegalArgumentException(
              "unknown key '" + cut(key) + "' (description, backend, model, tools)");
        }
        front.put(key, unquote(line.substring(colon + 1).strip()));
      }
      int next = body.indexOf('\n', end + 1);
      body = next < 0 ? "" : body.substring(next + 1);
    }
    List<String> tools = null;
    String listed = front.get("tools");
    if (listed != null && !listed.isBlank()) {
      tools = new ArrayList<>();
      for (String tool : Arrays.asList(listed.replace("[", "").replace("]", "").split(","))) {
        String t = unquote(tool.strip());
        if (!TOOL.matcher(t).matches()) {
          throw new IllegalArgumentException("'" + cut(t) + "' is not a tool name");
        }
        tools.add(t);
      }
    }
    String description = front.getOrDefault("description", "");
    return new Role(
        name,
        description.isBlank() ? "The " + name + " role." : description,
        body.strip(),
        blankToNull(front.get("backend")),
        blankToNull(front.get("model")),
        tools);
  }

  private static String unquote(String value) {
    if (value.length() >= 2
        && (value.startsWith("\"") && value.endsWith("\"")
            || value.startsWith("'") && value.endsWith("'"))) {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }

  private static String cut(String text) {
    return text.length() > 40 ? text.substring(0, 40) + "…" : text;
  }

  /** The role named {@code name}, or null. */
  public Role get(String name) {
    return roles.get(name);
  }

  /** Every role, built-in ones first. */
  public List<Role> all() {
    return List.copyOf(roles.values());
  }

  public List<String> names() {
    return List.copyOf(roles.keySet());
  }

  /** What was wrong with the role files, one sentence each. */
  public List<String> problems() {
    return problems;
  }

  /**
   * The models of {@code models} (as {@link #models} gives them) as a tool description's closing
   * paragraph, {@code "\n\nModels:\n- claude: a, b"}; empty when there are none.
   */
  public static String describeModels(Map<String, List<String>> models) {
    if (models.isEmpty()) {
      return "";
    }
    StringBuilder text = new StringBuilder("\n\nModels:");
    models.forEach(
        (backend, names) ->
            text.append("\n- ").append(backend).append(": ").append(String.join(", ", names)));
    return text.toString();
  }

  /**
   * The models subagents may name, by backend, as {@code CORTEX_SUBAGENT_<BACKEND>_MODELS} (comma
   * separated) say; at most {@link #MAX_MODELS} in all.
   */
  public static Map<String, List<String>> models(Map<String, String> env) {
    Map<String, List<String>> models = new LinkedHashMap<>();
    int count = 0;
    for (String backend : List.of("claude", "pi")) {
      String value = env.get(MODEL_VARIABLES.get(backend));
      if (value == null || value.isBlank()) {
        continue;
      }
      List<String> names = new ArrayList<>();
      for (String model : value.split(",")) {
        String m = model.strip();
        if (!m.isEmpty() && count < MAX_MODELS && !names.contains(m)) {
          names.add(m);
          count++;
        }
      }
      if (!names.isEmpty()) {
        models.put(backend, List.copyOf(names));
      }
    }
    return models;
  }
}
