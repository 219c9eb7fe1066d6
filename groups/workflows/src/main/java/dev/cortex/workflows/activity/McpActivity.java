package dev.cortex.workflows.activity;

import dev.cortex.base.Json;
import dev.cortex.mcp.compose.McpAssembly;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.process.ProcessSpec;
import dev.cortex.workflows.jq.Template;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ServerSpec;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.File;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.StringNode;

/**
 * The {@code mcp} kind: calls a tool on an MCP server declared under the manifest's {@code
 * servers}. A run starts each server once, on first use, and stops it when the run ends.
 */
public final class McpActivity implements Activity {
  /** How long a server gets to start and answer {@code initialize}, unless the step has less. */
  private static final Duration START_LIMIT = Duration.ofSeconds(60);

  /** The SDK's own per-request limit; the step's timeout is what bounds a call. */
  private static final Duration SESSION_LIMIT = Duration.ofHours(24);

  private static final int MESSAGE_LIMIT = 500;
  private static final TypeReference<Map<String, Object>> MAP = new TypeReference<>() {};

  private static final Map<String, Object> INPUT_SCHEMA =
      Schema.object()
          .required("server", Schema.string("A server declared under servers.", 1, -1))
          .required("tool", Schema.string("The tool to call.", 1, -1))
          .optional(
              "arguments",
              Schema.object().description("The tool's arguments (default {}).").open().build())
          .build();

  private final PrintStream serverLog;

  /** Servers' stderr goes to this process's stderr, never to its stdout. */
  public McpActivity() {
    this(System.err);
  }

  /** Servers' stderr goes to {@code serverLog}, each line prefixed with the server's name. */
  public McpActivity(PrintStream serverLog) {
    this.serverLog = Objects.requireNonNull(serverLog, "serverLog");
  }

  @Override
  public StepKind kind() {
    return StepKind.MCP;
  }

  @Override
  public String description() {
    return "Calls a tool on an MCP server declared under servers; the run starts each server once.";
  }

  @Override
  public String outputDescription() {
    return "The tool result's structured content; otherwise its text (parsed when it is"
        + " JSON). A result with isError fails the step (kind mcp_error).";
  }

  @Override
  public Map<String, Object> inputSchema() {
    return INPUT_SCHEMA;
  }

  @Override
  public List<String> preflight(Step step, Manifest manifest, ActivityEnvironment environment) {
    if (!(step.with().get("server") instanceof String name) || isTemplate(name)) {
      return List.of();
    }
    ServerSpec server = manifest.servers().get(name);
    if (server == null) {
      return List.of(
          "step '" + step.id() + "': server '" + name + "' is not declared under servers");
    }
    Optional<String> problem =
        server.isStdio() ? commandProblem(server.command(), environment) : urlProblem(server.url());
    return problem
        .map(p -> List.of("step '" + step.id() + "': server '" + name + "' " + p))
        .orElse(List.of());
  }

  private static Optional<String> commandProblem(
      List<String> command, ActivityEnvironment environment) {
    String program = command.get(0);
    if (isTemplate(program) || resolveProgram(program, environment).isPresent()) {
      return Optional.empty();
    }
    return Optional.of(
        program.contains("/") || program.contains(File.separator)
            ? "command '" + program + "' is not an executable file"
            : "command '" + program + "' is not on the PATH");
  }

  private static Optional<String> urlProblem(String url) {
    if (isTemplate(url)) {
      return Optional.empty();
    }
    try {
      URI uri = new URI(url);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null) {
        return Optional.empty();
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    return Optional.of("url '" + url + "' is not an http or https URL");
  }

  @Override
  public ActivityResult run(ActivityInput input) throws ActivityFailure, InterruptedException {
    String name = input.with().path("server").asString();
    String tool = input.with().path("tool").asString();
    ServerSpec server = input.manifest().servers().get(name);
    if (server == null) {
      throw new ActivityFailure(
          "invalid_input", "server '" + name + "' is not declared under servers", null, false);
    }
    if (server.isStdio()) {
      Optional<String> problem = commandProblem(server.command(), input.environment());
      if (problem.isPresent()) {
        throw unavailable(name, problem.get());
      }
    }
    String key = "mcp:" + name;
    McpConnection connection =
        input
            .scope()
            .resource(
                key,
                McpConnection.class,
                () -> open(name, server, input.environment(), serverLog, input.processes()));
    start(input, key, name, connection);
    McpSchema.CallToolResult result = call(input, key, tool, connection);
    return outcome(tool, result);
  }

  private static void start(ActivityInput input, String key, String name, McpConnection connection)
      throws ActivityFailure, InterruptedException {
    Duration limit =
        input.timeoutDuration().filter(t -> t.compareTo(START_LIMIT) < 0).orElse(START_LIMIT);
    try {
      connection.initialize(limit);
    } catch (InterruptedException e) {
      input.scope().discard(key);
      throw e;
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      input.scope().discard(key);
      String stderr = connection.recentStderr();
      throw unavailable(
          name, describe(e) + (stderr.isEmpty() ? "" : "; its stderr ended: " + truncate(stderr)));
    }
  }

  private static ActivityFailure unavailable(String name, String why) {
    return new ActivityFailure(
        "mcp_unavailable", "server '" + name + "' did not start: " + why, null, true);
  }

  private static McpSchema.CallToolResult call(
      ActivityInput input, String key, String tool, McpConnection connection)
      throws ActivityFailure, InterruptedException {
    Map<String, Object> arguments =
        input.with().path("arguments").isObject()
            ? Json.mapper().convertValue(input.with().get("arguments"), MAP)
            : Map.of();
    try {
      return connection.call(tool, arguments, input.timeout());
    } catch (InterruptedException e) {
      input.scope().discard(key);
      throw e;
    } catch (TimeoutException e) {
      throw new ActivityFailure(
          "timeout", "tool " + tool + " did not answer within " + input.timeout(), null, true);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof McpError error) {
        throw new ActivityFailure(
            "mcp_error", "tool " + tool + ": " + truncate(error.getMessage()), null, false);
      }
      input.scope().discard(key);
      throw new ActivityFailure(
          "mcp_unavailable", "tool " + tool + ": the server broke off: " + describe(e), null, true);
    }
  }

  private static ActivityResult outcome(String tool, McpSchema.CallToolResult result)
      throws ActivityFailure {
    String text = text(result.content());
    JsonNode output;
    String shape;
    if (result.structuredContent() != null) {
      output = Json.mapper().valueToTree(result.structuredContent());
      shape = shape(output);
    } else if (text == null) {
      output = Json.mapper().valueToTree(result.content() == null ? List.of() : result.content());
      shape = shape(output);
    } else {
      output = parsed(text).orElse(StringNode.valueOf(text));
      shape = output.isString() ? size(text) + " text" : shape(output);
    }
    if (Boolean.TRUE.equals(result.isError())) {
      String message = text == null ? "the tool reported an error" : text;
      throw new ActivityFailure(
          "mcp_error", "tool " + tool + ": " + truncate(message), output, false);
    }
    return ActivityResult.of(output, "tool " + tool + ": " + shape);
  }

  /** The text parts joined by newlines; null when the result has none. */
  private static String text(List<McpSchema.Content> content) {
    if (content == null) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    for (McpSchema.Content part : content) {
      if (part instanceof McpSchema.TextContent t && t.text() != null) {
        parts.add(t.text());
      }
    }
    return parts.isEmpty() ? null : String.join("\n", parts);
  }

  private static Optional<JsonNode> parsed(String text) {
    if (text.isBlank()) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(Json.mapper().readTree(text)).filter(n -> !n.isMissingNode());
    } catch (JacksonException e) {
      return Optional.empty();
    }
  }

  private static String shape(JsonNode node) {
    if (node.isObject()) {
      return "object with " + node.size() + (node.size() == 1 ? " key" : " keys");
    }
    if (node.isArray()) {
      return "array of " + node.size() + (node.size() == 1 ? " item" : " items");
    }
    return node.getNodeType().name().toLowerCase(Locale.ROOT);
  }

  private static String size(String text) {
    long bytes = text.getBytes(StandardCharsets.UTF_8).length;
    if (bytes < 1024) {
      return bytes + " B";
    }
    if (bytes < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KB", bytes / 1024.0);
    }
    return String.format(Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024.0));
  }

  private static McpConnection open(
      String name,
      ServerSpec server,
      ActivityEnvironment environment,
      PrintStream serverLog,
      ProcessObserver processes) {
    McpConnection.ServerLog log = new McpConnection.ServerLog(name, serverLog);
    McpClientTransport transport =
        server.isStdio()
            ? stdio(server.command(), environment, log, processes)
            : http(server.url());
    McpAsyncClient client =
        McpClient.async(transport)
            .clientInfo(McpSchema.Implementation.builder("cortex-workflows", "1").build())
            .requestTimeout(SESSION_LIMIT)
            .initializationTimeout(START_LIMIT)
            .build();
    return new McpConnection(client, log);
  }

  private static McpClientTransport stdio(
      List<String> command,
      ActivityEnvironment environment,
      McpConnection.ServerLog log,
      ProcessObserver processes) {
    // Resolve the program against the run's PATH: the JVM would search its own.
    List<String> argv = new ArrayList<>(command);
    argv.set(
        0, resolveProgram(command.get(0), environment).map(Path::toString).orElse(command.get(0)));
    ProcessSpec spec =
        ProcessSpec.builder(argv, environment.variables())
            .stdinOpen()
            .capture(0, 0)
            .followDescendants()
            .build();
    return new StdioServerTransport(spec, McpAssembly.sdkMapper(), log, processes);
  }

  private static McpClientTransport http(String url) {
    URI uri = URI.create(url);
    String origin = uri.getScheme() + "://" + uri.getRawAuthority();
    String endpoint =
        uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    if (uri.getRawQuery() != null) {
      endpoint += "?" + uri.getRawQuery();
    }
    return HttpClientStreamableHttpTransport.builder(origin)
        .endpoint(endpoint)
        .jsonMapper(McpAssembly.sdkMapper())
        .build();
  }

  /**
   * The executable {@code program} names: itself when it contains a separator, else the first match
   * on the environment's {@code PATH}.
   */
  static Optional<Path> resolveProgram(String program, ActivityEnvironment environment) {
    return ProgramPath.find(program, environment.variables(), null);
  }

  private static boolean isTemplate(String text) {
    return !Template.expressions(text).isEmpty();
  }

  private static String describe(Throwable e) {
    Throwable cause = e;
    while ((cause instanceof ExecutionException || cause.getMessage() == null)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof TimeoutException) {
      return "no answer in time";
    }
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }

  private static String truncate(String message) {
    if (message == null) {
      return "no message";
    }
    return message.length() <= MESSAGE_LIMIT ? message : message.substring(0, MESSAGE_LIMIT) + "…";
  }
}
