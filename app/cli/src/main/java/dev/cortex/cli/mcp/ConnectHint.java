package dev.cortex.cli.mcp;

import dev.cortex.base.Json;
import dev.cortex.mcp.compose.Composition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What {@code cortex mcp} tells a person who started it on a terminal. */
final class ConnectHint {
  private ConnectHint() {}

  static String text(
      List<String> launcher, String serverKey, String bundles, Composition composition) {
    List<String> args = new ArrayList<>(launcher.subList(1, launcher.size()));
    args.add("mcp");
    if (bundles != null) {
      args.add("--bundles");
      args.add(bundles);
    }
    Map<String, Object> server = new LinkedHashMap<>();
    server.put("command", launcher.get(0));
    server.put("args", args);
    String json = Json.writePretty(Map.of("mcpServers", Map.of(serverKey, server)));
    return "cortex mcp is serving MCP on stdin/stdout and waits for a client (groups: "
        + String.join(", ", composition.groupNames())
        + "; "
        + composition.tools().size()
        + " tools)."
        + moreGroups(composition)
        + "\n"
        + "To use it, add this to your MCP client's configuration (Claude Desktop, Claude Code and\n"
        + "Cursor read \"mcpServers\"; VS Code's mcp.json calls it \"servers\" and adds \"type\": \"stdio\"),\n"
        + "or let cortex add it: cortex config mcp --client claude-desktop|claude-code|vscode|cursor\n\n"
        + json
        + "\n\nPress Ctrl-D to stop.";
  }

  /**
   * How to reach the tools this composition leaves out, when it leaves out {@code core} or {@code
   * ext}: the groups a desktop client otherwise never sees.
   */
  static String moreGroups(Composition composition) {
    List<String> missing = new ArrayList<>();
    for (String group : List.of("core", "ext")) {
      if (!composition.groupNames().contains(group)) {
        missing.add(group);
      }
    }
    if (missing.isEmpty()) {
      return "";
    }
    List<String> wanted = new ArrayList<>(missing);
    wanted.addAll(composition.groupNames());
    return "\nMore groups: "
        + String.join(" and ", missing)
        + " (remote devices, current_time, sessions' waitpoints and costs) are not served;"
        + " add them with --bundles "
        + String.join(",", wanted)
        + " (or --bundles all). cortex tools list --bundles all shows every tool.";
  }
}
