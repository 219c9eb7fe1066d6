package dev.cortex.cli.mcp;

import dev.cortex.base.Json;
import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Services;
import dev.cortex.cli.Table;
import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.Composition;
import dev.cortex.mcp.compose.GroupRegistry;
import dev.cortex.mcp.compose.ToolChoice;
import dev.cortex.mcp.tool.AuditSettings;
import dev.cortex.mcp.tool.AuditTrail;
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
import picocli.CommandLine.Mixin;
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

  /**
   * The composition of every verb that serves or calls tools ({@code cortex mcp}, {@code tools
   * list}, {@code tools call}), by one rule: groups from {@code bundles}, else {@code
   * CORTEX_MCP_BUNDLES}, else {@code defaultBundles}, else the default composition; tools as {@code
   * choice} says.
   */
  static Composition compose(
      Io io, GroupRegistry registry, String bundles, String defaultBundles, ToolChoice choice) {
    return Composition.select(
        registry, bundles, io.env("CORTEX_MCP_BUNDLES"), defaultBundles, choice);
  }

  /**
   * The invoker of every verb that calls tools: the one place a call is made, and so recorded in
   * the audit trail ({@code [audit]} of cortex.toml), whatever the transport.
   */
  static ToolInvoker invoker(Io io, Services services, Composition composition) {
    return new ToolInvoker(
        composition.tools(),
        io.home(),
        Clock.systemDefaultZone(),
        AuditTrail.of(services.settings().get(AuditSettings.TABLE), io.home()));
  }

  /** {@code cortex tools list}. */
  @Command(
      name = "list",
      description = "List the tools of the selected groups.",
      mixinStandardHelpOptions = true)
  public static final class ListTools implements Callable<Integer> {
    /** How much of a description a line of the table shows. */
    static final int GIST = 72;

    private final Io io;

    @Option(
        names = "--bundles",
        paramLabel = "GROUPS",
        description =
            "Groups to list (comma list or JSON array, or all); default: CORTEX_MCP_BUNDLES, else"
                + " the default composition (evidence, workflows), as for cortex mcp.")
    String bundles;

    @Mixin ToolChoiceOptions choice = new ToolChoiceOptions();

    @Option(names = "--json", description = "Print names, descriptions, schemas and hints as JSON.")
    boolean json;

    public ListTools(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      Composition composition =
          compose(io, AllGroups.registry(io), bundles, null, choice.choice(io));
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
      List<List<String>> rows = new ArrayList<>();
      rows.add(List.of("TOOL", "GROUP", "ACCESS", "DESCRIPTION"));
      for (CapabilityGroup group : composition.groups()) {
        List<String> names = group.tools().stream().map(ToolSpec::name).toList();
        for (ToolSpec spec : composition.tools()) {
          if (names.contains(spec.name())) {
            rows.add(
                List.of(
                    spec.name(),
                    group.name(),
                    spec.hints().readOnly() ? "read" : "write",
                    Gist.of(spec.description(), GIST)));
          }
        }
      }
      if (rows.size() > 1) {
        Table.print(io.out(), rows);
      }
      return CortexCommand.OK;
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
            "Groups to serve the tool from (comma list or JSON array, or all); default:"
                + " CORTEX_MCP_BUNDLES, else the default composition (evidence, workflows), as for"
                + " cortex mcp.")
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
              bundles,
              null,
              ToolChoice.of(false, null, io.env("CORTEX_MCP_TOOL_ALLOWLIST"), null));
      if (composition.tools().stream().noneMatch(t -> t.name().equals(name))) {
        String elsewhere = groupOf(registry, composition, name);
        if (elsewhere != null) {
          return report(
              new ToolOutcome.Failure(
                  dev.cortex.base.ErrorCodes.UNKNOWN_TOOL,
                  name
                      + " is a tool of the "
                      + elsewhere
                      + " group, which the selected groups ("
                      + String.join(", ", composition.groupNames())
                      + ") leave out. Add it: --bundles "
                      + String.join(",", withGroup(composition.groupNames(), elsewhere))
                      + " (or --bundles all), or set CORTEX_MCP_BUNDLES; an MCP client gets it"
                      + " the same way, from cortex mcp --bundles."));
        }
      }
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
      int code = report(invoker(io, services, composition).call(name, args, caller));
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

  /** The group not selected in {@code composition} that serves {@code tool}, or null. */
  private static String groupOf(GroupRegistry registry, Composition composition, String tool) {
    for (String group : registry.names()) {
      if (!composition.groupNames().contains(group)
          && registry.create(group).orElseThrow().tools().stream()
              .anyMatch(t -> t.name().equals(tool))) {
        return group;
      }
    }
    return null;
  }

  private static List<String> withGroup(List<String> groups, String group) {
    List<String> all = new ArrayList<>(List.of(group));
    all.addAll(groups);
    return all;
  }

  /** The listing of {@code tools list --json}: the groups, then the tools, always in that order. */
  static Map<String, Object> listing(Object groups, Object tools) {
    Map<String, Object> listing = new java.util.LinkedHashMap<>();
    listing.put("groups", groups);
    listing.put("tools", tools);
    return listing;
  }
}
