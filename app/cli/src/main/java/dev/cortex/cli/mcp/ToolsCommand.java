package dev.cortex.cli.mcp;

import dev.cortex.base.Json;
import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Services;
import dev.cortex.mcp.compose.Composition;
import dev.cortex.mcp.compose.GroupRegistry;
import dev.cortex.mcp.tool.ToolContext;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolOutcome;
import dev.cortex.mcp.tool.ToolSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/** {@code cortex tools}: list or call any tool in-process, through the same code as MCP. */
@Command(
    name = "tools",
    description = "List or call the tools of the selected groups.",
    mixinStandardHelpOptions = true)
public final class ToolsCommand implements Callable<Integer> {
  private final Io io;

  public ToolsCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    return CortexCommand.usage(io, "cortex tools: say 'list' or 'call NAME JSON'.");
  }

  static Composition compose(Io io, String bundles) {
    return compose(io, AllGroups.registry(io), bundles);
  }

  static Composition compose(Io io, GroupRegistry registry, String bundles) {
    return compose(io, registry, bundles, null);
  }

  static Composition compose(Io io, GroupRegistry registry, String bundles, String defaultBundles) {
    return Composition.select(
        registry,
        bundles,
        io.env("CORTEX_MCP_BUNDLES"),
        io.env("CORTEX_MCP_TOOL_ALLOWLIST"),
        defaultBundles);
  }

  static ToolInvoker invoker(Io io, Composition composition) {
    return new ToolInvoker(composition.tools(), io.home(), Clock.systemDefaultZone());
  }

  /** {@code cortex tools list}. */
  @Command(
      name = "list",
      description = "List the tools of the selected groups.",
      mixinStandardHelpOptions = true)
  public static final class ListTools implements Callable<Integer> {
    private final Io io;

    @Option(
        names = "--bundles",
        paramLabel = "GROUPS",
        description =
            "Groups to list (comma list or JSON array); default: CORTEX_MCP_BUNDLES, else the default composition.")
    String bundles;

    @Option(names = "--json", description = "Print names, descriptions, schemas and hints as JSON.")
    boolean json;

    public ListTools(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      Composition composition = compose(io, bundles);
      if (json) {
        List<Map<String, Object>> tools = new ArrayList<>();
        for (ToolSpec spec : composition.tools()) {
          Map<String, Object> tool = new LinkedHashMap<>();
          tool.put("name", spec.name());
          tool.put("title", spec.title());
          tool.put("description", spec.description());
          tool.put("input_schema", spec.inputSchema());
          tool.put("output_schema", spec.outputSchema());
          tool.put("annotations", spec.hints().asAnnotations());
          tools.add(tool);
        }
        io.out().println(Json.writePretty(listing(composition.groupNames(), tools)));
        return CortexCommand.OK;
      }
      io.out().println("groups: " + String.join(", ", composition.groupNames()));
      for (ToolSpec spec : composition.tools()) {
        io.out().println(spec.name() + "  " + firstSentence(spec.description()));
      }
      return CortexCommand.OK;
    }

    private static String firstSentence(String text) {
      int end = text.indexOf(". ");
      return end < 0 ? text : text.substring(0, end + 1);
    }
  }

  /** {@code cortex tools call NAME JSON}. */
  @Command(
      name = "call",
      description = "Call one tool with JSON arguments and print its result as JSON.",
      mixinStandardHelpOptions = true)
  public static final class CallTool implements Callable<Integer> {
    private final Io io;

    @Option(
        names = "--bundles",
        paramLabel = "GROUPS",
        description =
            "Groups to serve the tool from; default: CORTEX_MCP_BUNDLES, else all groups.")
    String bundles;

    @Parameters(index = "0", paramLabel = "NAME", description = "The tool's name.")
    String name;

    @Parameters(
        index = "1",
        arity = "0..1",
        paramLabel = "JSON",
        description = "Arguments as a JSON object ('-' reads standard input). Default: {}.")
    String arguments;

    public CallTool(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws IOException, InterruptedException {
      Services services = new Services(io);
      GroupRegistry registry = AllGroups.registry(services);
      Composition composition =
          compose(
              io,
              registry,
              bundles == null && io.env("CORTEX_MCP_BUNDLES") == null
                  ? String.join(",", registry.names())
                  : bundles);
      JsonNode args;
      String text = arguments == null ? "{}" : arguments;
      if ("-".equals(text)) {
        text = new String(io.in().readAllBytes(), StandardCharsets.UTF_8);
      }
      try {
        args = Json.mapper().readTree(text);
      } catch (JacksonException e) {
        return report(
            new ToolOutcome.Failure(
                "INVALID_ARGUMENT", "The arguments are not valid JSON: " + e.getOriginalMessage()));
      }
      // The same session identity an MCP server of this environment would act for.
      ToolContext.Caller caller =
          ToolContext.Caller.of(ToolContext.ProgressSink.NONE)
              .withSession(
                  dev.cortex.mcp.caller.SessionIdentity.fromEnvironment(io.env()),
                  new dev.cortex.mcp.caller.SessionMemory());
      int code = report(invoker(io, composition).call(name, args, caller));
      services.awaitRuns();
      return code;
    }

    private static String describe(dev.cortex.mcp.tool.Content item) {
      if (item instanceof dev.cortex.mcp.tool.Content.Image image) {
        return image.mimeType() + " image content (" + image.data().length + " bytes)";
      }
      if (item instanceof dev.cortex.mcp.tool.Content.Resource resource) {
        return "an embedded resource "
            + resource.uri()
            + " ("
            + resource.mimeType()
            + ", "
            + resource.data().length
            + " bytes)";
      }
      return "text content: " + ((dev.cortex.mcp.tool.Content.Text) item).text();
    }

    private int report(ToolOutcome outcome) {
      io.out().println(Json.writePretty(outcome.body()));
      if (outcome instanceof ToolOutcome.Success success) {
        for (dev.cortex.mcp.tool.Content item : success.content()) {
          io.err().println("cortex: the result also carries " + describe(item));
        }
      }
      if (outcome instanceof ToolOutcome.Failure failure) {
        io.err().println("cortex: " + failure.code() + ": " + failure.message());
        return CortexCommand.FAILED;
      }
      return CortexCommand.OK;
    }
  }

  /** The listing of {@code tools list --json}: the groups, then the tools, always in that order. */
  static Map<String, Object> listing(Object groups, Object tools) {
    Map<String, Object> listing = new java.util.LinkedHashMap<>();
    listing.put("groups", groups);
    listing.put("tools", tools);
    return listing;
  }
}
