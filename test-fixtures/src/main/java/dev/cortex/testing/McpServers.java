package dev.cortex.testing;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The MCP servers of a turn's configuration file (Claude Code's {@code mcpServers} format: {@code
 * command}, {@code args}, {@code env}, {@code cwd}), each started with the SDK's stdio client when
 * first used. A server's environment is this program's own plus the entry's {@code env}.
 */
final class McpServers implements AutoCloseable {
  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final JacksonMcpJsonMapper MAPPER = new JacksonMcpJsonMapper(JSON);
  private static final Duration START = Duration.ofSeconds(120);

  /** One server of the file. */
  record Entry(String command, List<String> args, Map<String, String> env, Path cwd) {}

  /** A tool's answer as the agent reports it: its text, and whether it is an error. */
  record Outcome(String text, boolean error) {}

  /** A server that cannot be used: the sentence says why. */
  static final class Unavailable extends Exception {
    private static final long serialVersionUID = 1L;

    Unavailable(String message) {
      super(message, null, false, false);
    }
  }

  private final Map<String, Entry> entries;
  private final String problem;
  private final Duration callTimeout;
  private final Map<String, McpSyncClient> clients = new LinkedHashMap<>();

  private McpServers(Map<String, Entry> entries, String problem, Duration callTimeout) {
    this.entries = entries;
    this.problem = problem;
    this.callTimeout = callTimeout;
  }

  /**
   * The servers of {@code config}; a file that cannot be read makes every use fail with the reason,
   * so that a turn without calls does not need one.
   */
  static McpServers read(Path config, Duration callTimeout) {
    if (config == null) {
      return new McpServers(Map.of(), "the turn names no MCP configuration file", callTimeout);
    }
    try {
      JsonNode servers = JSON.readTree(Files.readString(config)).path("mcpServers");
      Map<String, Entry> entries = new LinkedHashMap<>();
      for (String name : servers.propertyNames()) {
        JsonNode server = servers.path(name);
        List<String> args = new ArrayList<>();
        server.path("args").forEach(arg -> args.add(arg.asString()));
        Map<String, String> env = new LinkedHashMap<>();
        for (String key : server.path("env").propertyNames()) {
          env.put(key, server.path("env").path(key).asString());
        }
        String cwd = server.path("cwd").asString(null);
        entries.put(
            name,
            new Entry(
                server.path("command").asString(null),
                args,
                env,
                cwd == null ? null : Path.of(cwd)));
      }
      return new McpServers(entries, null, callTimeout);
    } catch (IOException | RuntimeException e) {
      return new McpServers(
          Map.of(),
          "the MCP configuration " + config + " cannot be read: " + e.getMessage(),
          callTimeout);
    }
  }

  /** The servers' keys, in the file's order. */
  List<String> names() throws Unavailable {
    if (problem != null) {
      throw new Unavailable(problem);
    }
    return List.copyOf(entries.keySet());
  }

  /** The key of {@code server}, or of the file's only server when {@code server} is null. */
  String resolve(String server) throws Unavailable {
    List<String> names = names();
    if (server == null) {
      if (names.size() != 1) {
        throw new Unavailable(
            "the call names no server and the MCP configuration has "
                + names.size()
                + " ("
                + String.join(", ", names)
                + ")");
      }
      return names.get(0);
    }
    if (!entries.containsKey(server)) {
      throw new Unavailable(
          "the MCP configuration has no server '"
              + server
              + "' (it has: "
              + (names.isEmpty() ? "none" : String.join(", ", names))
              + ")");
    }
    return server;
  }

  /** Calls {@code tool} of {@code server}. */
  Outcome call(String server, String tool, Map<String, Object> arguments) throws Unavailable {
    McpSyncClient client = client(server);
    try {
      McpSchema.CallToolResult result =
          client.callTool(new McpSchema.CallToolRequest(tool, arguments));
      return new Outcome(text(result), Boolean.TRUE.equals(result.isError()));
    } catch (McpError e) {
      return new Outcome(e.getMessage(), true);
    } catch (RuntimeException e) {
      return new Outcome("the call failed: " + e.getMessage(), true);
    }
  }

  /** The names of the tools {@code server} lists, in its order. */
  List<String> tools(String server) throws Unavailable {
    McpSyncClient client = client(server);
    List<String> names = new ArrayList<>();
    String cursor = null;
    do {
      McpSchema.ListToolsResult page = client.listTools(cursor);
      page.tools().forEach(t -> names.add(t.name()));
      cursor = page.nextCursor();
    } while (cursor != null);
    return names;
  }

  private McpSyncClient client(String server) throws Unavailable {
    String name = resolve(server);
    McpSyncClient existing = clients.get(name);
    if (existing != null) {
      return existing;
    }
    Entry entry = entries.get(name);
    if (entry.command() == null) {
      throw new Unavailable("the MCP server '" + name + "' has no command (not a stdio server)");
    }
    if (!runnable(entry.command(), entry.cwd())) {
      throw new Unavailable(
          "the MCP server '"
              + name
              + "' did not start: its command "
              + entry.command()
              + " is not an executable file");
    }
    ServerParameters params =
        ServerParameters.builder(entry.command()).args(entry.args()).env(entry.env()).build();
    StdioClientTransport transport =
        entry.cwd() == null
            ? new StdioClientTransport(params, MAPPER)
            : new StdioClientTransport(params, MAPPER) {
              @Override
              protected ProcessBuilder getProcessBuilder() {
                return new ProcessBuilder().directory(entry.cwd().toFile());
              }
            };
    McpSyncClient client =
        McpClient.sync(transport)
            .requestTimeout(callTimeout)
            .initializationTimeout(START)
            .clientInfo(new McpSchema.Implementation("cortex-scripted-agent", "1.0"))
            .build();
    try {
      client.initialize();
    } catch (RuntimeException e) {
      client.close();
      throw new Unavailable("the MCP server '" + name + "' did not start: " + e.getMessage());
    }
    clients.put(name, client);
    return client;
  }

  /**
   * Whether {@code command} names a program that can run, as the SDK's transport would look it up
   * (a path from {@code cwd}, else a name on this process's {@code PATH}); the transport itself
   * only reports a missing program when its start times out.
   */
  private static boolean runnable(String command, Path cwd) {
    try {
      if (command.contains("/") || command.contains(java.io.File.separator)) {
        Path path = (cwd == null ? Path.of("") : cwd).resolve(command).toAbsolutePath();
        return Files.isRegularFile(path) && Files.isExecutable(path);
      }
      for (String dir :
          System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
        Path candidate = Path.of(dir.isEmpty() ? "." : dir).resolve(command);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return true;
        }
      }
      return false;
    } catch (java.nio.file.InvalidPathException e) {
      return false;
    }
  }

  /** A result's content as text: text as it is, other kinds named; structured content as JSON. */
  static String text(McpSchema.CallToolResult result) {
    List<String> parts = new ArrayList<>();
    for (McpSchema.Content content :
        result.content() == null ? List.<McpSchema.Content>of() : result.content()) {
      if (content instanceof McpSchema.TextContent text) {
        parts.add(text.text());
      } else if (content instanceof McpSchema.ImageContent) {
        parts.add("[image]");
      } else if (content instanceof McpSchema.AudioContent) {
        parts.add("[audio]");
      } else if (content instanceof McpSchema.EmbeddedResource embedded) {
        parts.add(
            embedded.resource() instanceof McpSchema.TextResourceContents resource
                ? resource.text()
                : "[resource " + embedded.resource().uri() + "]");
      } else if (content instanceof McpSchema.ResourceLink link) {
        parts.add("[resource " + link.uri() + "]");
      }
    }
    if (parts.isEmpty() && result.structuredContent() != null) {
      return JSON.writeValueAsString(result.structuredContent());
    }
    return String.join("\n", parts);
  }

  /** Stops every server started. */
  @Override
  public void close() {
    for (McpSyncClient client : clients.values()) {
      try {
        client.closeGracefully();
      } catch (RuntimeException e) {
        client.close();
      }
    }
    clients.clear();
  }
}
