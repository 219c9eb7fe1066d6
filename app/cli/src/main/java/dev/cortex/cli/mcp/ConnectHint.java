package dev.cortex.cli.mcp;

import dev.cortex.base.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What {@code cortex mcp} tells a person who started it on a terminal. */
final class ConnectHint {
  private ConnectHint() {}

  static String text(List<String> launcher, String serverKey, String bundles) {
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
    return "cortex mcp is serving MCP on stdin/stdout and waits for a client.\n"
        + "To use it, add this to your MCP client's configuration (Claude Desktop, Claude Code and\n"
        + "Cursor read \"mcpServers\"; VS Code's mcp.json calls it \"servers\" and adds \"type\": \"stdio\"),\n"
        + "or let cortex add it: cortex config mcp --client claude-desktop|claude-code|vscode|cursor\n\n"
        + json
        + "\n\nPress Ctrl-D to stop.";
  }
}
