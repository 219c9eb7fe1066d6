package dev.cortex.server.plugins;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One MCP server a plugin's {@code mcp.json} declares, checked and with {@code ${PLUGIN_ROOT}}
 * expanded ({@code ${PLUGIN_DATA}} stays until the server is materialised, see {@link #needsData}).
 * Its values (commands, arguments, environment values, URLs, header values) stay inside the agent
 * server: everything shown outside it is a {@link Summary}.
 */
public sealed interface PluginServer {
  /** Its name in the package's {@code mcpServers}. */
  String name();

  /** {@code stdio}, {@code streamable-http} or {@code sse}. */
  String type();

  /** Whether a value holds {@code ${PLUGIN_DATA}}: the server needs the plugin's data directory. */
  boolean needsData();

  /** What may be shown of it: never a value, a full URL or a header value. */
  Summary summary();

  /** A local process speaking MCP on its standard streams. */
  record Stdio(
      String name,
      String command,
      List<String> args,
      Map<String, String> env,
      String cwd,
      boolean needsData)
      implements PluginServer {
    public Stdio {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(command, "command");
      args = List.copyOf(args);
      env = Map.copyOf(env);
    }

    @Override
    public String type() {
      return PluginCatalog.STDIO;
    }

    @Override
    public Summary summary() {
      Path file = Path.of(command.replace("${PLUGIN_DATA}", "data")).getFileName();
      return new Summary(
          name,
          type(),
          file == null ? command : file.toString(),
          args.size(),
          env.keySet().stream().sorted().toList(),
          null,
          List.of());
    }
  }

  /** A server reached over HTTP: streamable HTTP, or the older SSE transport. */
  record Remote(String name, String type, URI url, Map<String, String> headers)
      implements PluginServer {
    public Remote {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(url, "url");
      headers = Map.copyOf(headers);
    }

    @Override
    public boolean needsData() {
      return false;
    }

    @Override
    public Summary summary() {
      return new Summary(
          name, type, null, 0, List.of(), origin(url), headers.keySet().stream().sorted().toList());
    }

    /** {@code scheme://host[:port]}: no path, query, user or fragment. */
    static String origin(URI url) {
      return url.getScheme()
          + "://"
          + url.getHost()
          + (url.getPort() < 0 ? "" : ":" + url.getPort());
    }
  }

  /**
   * A server as it may be shown outside the agent server: for stdio the executable's file name, the
   * number of arguments and the names of its environment variables; for a remote server its origin
   * and the names of its headers.
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record Summary(
      String name,
      String type,
      String executable,
      int argCount,
      List<String> envKeys,
      String origin,
      List<String> headerNames) {}
}
