package dev.cortex.mcp.compose;

import dev.cortex.base.StartupException;
import dev.cortex.mcp.tool.ToolSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which of the selected groups' tools a server serves: only those {@code only} names (when it names
 * any), less those {@code excluded} names, and of the rest only the read-only ones when {@code
 * readOnly}. Every name is checked against the tools the groups serve before anything is
 * registered; a name they do not serve stops start-up, naming the closest tool they do serve, or
 * the group that has it.
 *
 * @param readOnly serve only the tools annotated {@code readOnlyHint: true}
 * @param only the tools to serve, or empty for every tool of the groups
 * @param onlySource where {@code only} came from, as the error names it ({@code --tools} or {@code
 *     CORTEX_MCP_TOOL_ALLOWLIST})
 * @param excluded the tools not to serve
 */
public record ToolChoice(
    boolean readOnly, List<String> only, String onlySource, List<String> excluded) {

  public ToolChoice {
    only = List.copyOf(only);
    excluded = List.copyOf(excluded);
    if (onlySource == null || onlySource.isBlank()) {
      throw new IllegalArgumentException("onlySource must name where the tool list came from");
    }
  }

  /**
   * The choice of a command line: {@code --tools} (else {@code CORTEX_MCP_TOOL_ALLOWLIST}), {@code
   * --exclude-tools} and {@code --read-only}. Each list is a comma list or a JSON array; a
   * client-prefixed name such as {@code mcp__cortex-core__current_time} is taken as the tool's own.
   *
   * @param toolsFlag the value of {@code --tools}, or null
   * @param allowlistEnv the value of {@code CORTEX_MCP_TOOL_ALLOWLIST}, or null
   * @param excludeFlag the value of {@code --exclude-tools}, or null
   * @throws StartupException when a list is no list of names
   */
  public static ToolChoice of(
      boolean readOnly, String toolsFlag, String allowlistEnv, String excludeFlag) {
    List<String> only = List.of();
    String source = "--tools";
    if (toolsFlag != null) {
      only = names(toolsFlag, "--tools");
      if (only.isEmpty()) {
        throw new StartupException("--tools names no tool. Give one or more, comma-separated.");
      }
    } else if (allowlistEnv != null && !allowlistEnv.isBlank()) {
      source = "CORTEX_MCP_TOOL_ALLOWLIST";
      only = names(allowlistEnv, source);
    }
    List<String> excluded = excludeFlag == null ? List.of() : names(excludeFlag, "--exclude-tools");
    return new ToolChoice(readOnly, only, source, excluded);
  }

  private static List<String> names(String value, String source) {
    List<String> names = new ArrayList<>();
    for (String raw : Composition.parseList(value, source)) {
      names.add(Composition.toolName(raw));
    }
    return names;
  }

  /**
   * The tools of {@code all} that this choice serves, in their order.
   *
   * @param elsewhere the groups not selected, by name, with their tools: where a name the selected
   *     groups lack may be found
   * @throws StartupException naming every unknown name, with the closest served tool
   */
  List<ToolSpec> apply(
      List<ToolSpec> all, Set<String> groupNames, Map<String, List<String>> elsewhere) {
    Set<String> served = new TreeSet<>();
    all.forEach(t -> served.add(t.name()));
    check(only, onlySource, served, groupNames, elsewhere);
    check(excluded, "--exclude-tools", served, groupNames, elsewhere);
    Set<String> wanted = new LinkedHashSet<>(only);
    if (readOnly) {
      List<String> writers =
          all.stream()
              .filter(t -> wanted.contains(t.name()) && !t.hints().readOnly())
              .map(ToolSpec::name)
              .toList();
      if (!writers.isEmpty()) {
        throw new StartupException(
            onlySource
                + " names "
                + String.join(", ", writers)
                + ", which "
                + (writers.size() == 1 ? "is" : "are")
                + " not read-only, and --read-only serves only read-only tools. Leave "
                + (writers.size() == 1 ? "it" : "them")
                + " out, or drop --read-only.");
      }
    }
    List<ToolSpec> chosen = new ArrayList<>();
    for (ToolSpec tool : all) {
      boolean in = wanted.isEmpty() || wanted.contains(tool.name());
      if (in && !excluded.contains(tool.name()) && (!readOnly || tool.hints().readOnly())) {
        chosen.add(tool);
      }
    }
    return chosen;
  }

  private static void check(
      List<String> names,
      String source,
      Set<String> served,
      Set<String> groupNames,
      Map<String, List<String>> elsewhere) {
    List<String> outside = names.stream().filter(n -> !served.contains(n)).distinct().toList();
    if (outside.isEmpty()) {
      return;
    }
    StringBuilder message =
        new StringBuilder(source)
            .append(" names ")
            .append(String.join(", ", outside))
            .append(", not served by the selected groups (")
            .append(String.join(", ", groupNames))
            .append(").");
    for (String name : outside) {
      message.append(' ').append(whereabouts(name, served, elsewhere));
    }
    message
        .append(" Their tools: ")
        .append(served.isEmpty() ? "none" : String.join(", ", served))
        .append('.');
    throw new StartupException(message.toString());
  }

  /** Where {@code name} is: in a group not selected, or else what it is closest to. */
  private static String whereabouts(
      String name, Set<String> served, Map<String, List<String>> elsewhere) {
    for (Map.Entry<String, List<String>> group : elsewhere.entrySet()) {
      if (group.getValue().contains(name)) {
        return name
            + " is a tool of the "
            + group.getKey()
            + " group: add the group with --bundles (or CORTEX_MCP_BUNDLES).";
      }
    }
    String closest = closest(name, served);
    return closest == null
        ? name + " is no tool of Cortex."
        : name + ": did you mean " + closest + "?";
  }

  /** The served name nearest to {@code name} by edit distance, or null when none is served. */
  static String closest(String name, Set<String> served) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String candidate : served) {
      int distance = distance(name, candidate);
      if (distance < bestDistance) {
        best = candidate;
        bestDistance = distance;
      }
    }
    return best;
  }

  /** Levenshtein distance: the fewest single-character edits that turn {@code a} into {@code b}. */
  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
