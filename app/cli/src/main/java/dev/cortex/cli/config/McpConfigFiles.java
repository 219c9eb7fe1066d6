package dev.cortex.cli.config;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.mcp.compose.GroupDescriptor;
import dev.cortex.mcp.compose.GroupRegistry;
import dev.cortex.protocol.session.McpConfigNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The MCP client configuration files of the agent server ({@code $CORTEX_HOME/config/mcp-config
 * *.json}), in Claude Code's {@code mcpServers} format: the {@code direct} composition every
 * ordinary session loads (core + ext), the empty one for the {@code none} composition, and one file
 * per group whose descriptor names a file. Each entry starts this installation's {@code cortex mcp}
 * with the file's groups as {@code --default-bundles}: the agent server's {@code
 * CORTEX_MCP_BUNDLES} for a session (core and ext plus, say, interaction) then wins over the
 * file's.
 */
public final class McpConfigFiles {
  private McpConfigFiles() {}

  /**
   * One configuration file.
   *
   * @param serverKey the key of its one server, or null for the empty file
   * @param groups the groups its server serves; empty for the empty file
   */
  record File(String fileName, String serverKey, List<String> groups) {
    File {
      Objects.requireNonNull(fileName, "fileName");
      groups = List.copyOf(groups);
    }

    /** The file's JSON, whose server is started by {@code launcher} (command and arguments). */
    Map<String, Object> render(List<String> launcher) {
      Map<String, Object> servers = new LinkedHashMap<>();
      if (!groups.isEmpty()) {
        List<String> args = new ArrayList<>(launcher.subList(1, launcher.size()));
        args.add("mcp");
        args.add("--default-bundles");
        args.add(String.join(",", groups));
        Map<String, Object> server = new LinkedHashMap<>();
        server.put("command", launcher.get(0));
        server.put("args", args);
        servers.put(serverKey, server);
      }
      return Map.of("mcpServers", servers);
    }
  }

  /** The files, in the order the agent server's documentation lists them. */
  static List<File> of(GroupRegistry registry) {
    List<File> files = new ArrayList<>();
    String directKey =
        registry
            .descriptor(McpConfigNames.DIRECT_GROUPS.get(0))
            .map(GroupDescriptor::serverKey)
            .orElseThrow(() -> new IllegalStateException("no core group registered"));
    files.add(new File(McpConfigNames.DIRECT, directKey, McpConfigNames.DIRECT_GROUPS));
    files.add(new File(McpConfigNames.EMPTY, null, List.of()));
    for (GroupDescriptor descriptor : registry.descriptors()) {
      if (descriptor.configFile() != null) {
        files.add(
            new File(descriptor.configFile(), descriptor.serverKey(), List.of(descriptor.name())));
      }
    }
    return files;
  }

  /**
   * Writes every file into {@code configDir} (atomically, owner-only), each pointing at {@code
   * launcher}, and returns them with their paths.
   */
  public static Map<Path, File> write(
      Path configDir, GroupRegistry registry, List<String> launcher) {
    Map<Path, File> written = new LinkedHashMap<>();
    for (File file : of(registry)) {
      Path path = configDir.resolve(file.fileName());
      CortexHome.writeAtomically(path, Json.writePretty(file.render(launcher)) + "\n");
      written.put(path, file);
    }
    return written;
  }
}
