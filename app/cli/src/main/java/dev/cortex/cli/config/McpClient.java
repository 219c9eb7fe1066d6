package dev.cortex.cli.config;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The MCP clients whose configuration {@code cortex config mcp --client} edits: the file each keeps
 * its servers in, per scope and operating system, and the shape of a stdio server entry there.
 */
enum McpClient {
  CLAUDE_DESKTOP("claude-desktop", "Claude Desktop", "mcpServers", false, false, false) {
    @Override
    Optional<Path> file(Scope scope, McpClientPaths paths) {
      if (scope == Scope.PROJECT) {
        return Optional.empty();
      }
      return Optional.of(paths.appData().resolve("Claude").resolve("claude_desktop_config.json"));
    }
  },
  CLAUDE_CODE("claude-code", "Claude Code", "mcpServers", true, true, false) {
    @Override
    Optional<Path> file(Scope scope, McpClientPaths paths) {
      return Optional.of(
          scope == Scope.USER
              ? paths.home().resolve(".claude.json")
              : paths.workDir().resolve(".mcp.json"));
    }
  },
  VSCODE("vscode", "VS Code", "servers", true, false, true) {
    @Override
    Optional<Path> file(Scope scope, McpClientPaths paths) {
      return Optional.of(
          scope == Scope.USER
              ? paths.appData().resolve("Code").resolve("User").resolve("mcp.json")
              : paths.workDir().resolve(".vscode").resolve("mcp.json"));
    }
  },
  CURSOR("cursor", "Cursor", "mcpServers", false, false, false) {
    @Override
    Optional<Path> file(Scope scope, McpClientPaths paths) {
      Path base = scope == Scope.USER ? paths.home() : paths.workDir();
      return Optional.of(base.resolve(".cursor").resolve("mcp.json"));
    }
  };

  /** User scope: every project of this person; project scope: the current directory's project. */
  enum Scope {
    USER,
    PROJECT
  }

  private final String id;
  private final String title;
  private final String serversKey;
  private final boolean typed;
  private final boolean withEnv;
  private final boolean jsonc;

  McpClient(
      String id, String title, String serversKey, boolean typed, boolean withEnv, boolean jsonc) {
    this.id = id;
    this.title = title;
    this.serversKey = serversKey;
    this.typed = typed;
    this.withEnv = withEnv;
    this.jsonc = jsonc;
  }

  /** The configuration file for {@code scope}, or empty when the client has no such scope. */
  abstract Optional<Path> file(Scope scope, McpClientPaths paths);

  /** The name on the command line, e.g. {@code claude-desktop}. */
  String id() {
    return id;
  }

  /** The client's own name, e.g. {@code Claude Desktop}. */
  String title() {
    return title;
  }

  /** The top-level key that maps server names to entries: {@code mcpServers} or {@code servers}. */
  String serversKey() {
    return serversKey;
  }

  /** Whether entries carry {@code "type": "stdio"} (VS Code requires it; Claude Code writes it). */
  boolean typed() {
    return typed;
  }

  /** Whether entries carry an {@code env} object, as {@code claude mcp add} writes them. */
  boolean withEnv() {
    return withEnv;
  }

  /**
   * Whether the client reads its file as JSON with comments and trailing commas (VS Code's JSONC),
   * so that a file holding them is edited with them kept; the other clients' files are plain JSON.
   */
  boolean jsonc() {
    return jsonc;
  }

  static Optional<McpClient> byId(String id) {
    return Arrays.stream(values()).filter(c -> c.id.equals(id)).findFirst();
  }

  static List<String> ids() {
    return Arrays.stream(values()).map(McpClient::id).toList();
  }
}
