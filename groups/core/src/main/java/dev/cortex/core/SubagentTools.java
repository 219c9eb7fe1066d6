package dev.cortex.core;

import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolContext;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.webhook.SubagentRoles;
import dev.cortex.protocol.webhook.Subagents;
import dev.cortex.server.client.AgentServerClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code agent} and {@code agent_stop}: delegation to subagents, which the agent server runs as
 * child sessions of the calling one (see {@code docs/subagents.md}). A call's arguments become the
 * webhook's {@link Subagents.Run}, whose rules both sides check.
 */
final class SubagentTools {
  static final String AGENT = "agent";
  static final String STOP = "agent_stop";

  private static final Duration STOP_DEADLINE = Duration.ofSeconds(60);

  private final AgentServerClient agentServer;
  private final SubagentRoles roles;
  private final Map<String, List<String>> models;

  SubagentTools(AgentServerClient agentServer, SubagentRoles roles, Map<String, String> env) {
    this.agentServer = agentServer;
    this.roles = roles;
    this.models = SubagentRoles.models(env);
  }

  record Arguments(
      String description,
      String prompt,
      String subagentType,
      List<ItemArgument> parallel,
      List<ItemArgument> chain,
      String model,
      String backend,
      Boolean runInBackground) {}

  record ItemArgument(
      String description, String prompt, String subagentType, String model, String backend) {
    Subagents.Item item() {
      return new Subagents.Item(description, prompt, subagentType, model, backend);
    }
  }

  private static List<Subagents.Item> items(List<ItemArgument> items) {
    return items == null ? null : items.stream().map(i -> i == null ? null : i.item()).toList();
  }

  record StopArguments(String agentId) {}

  List<ToolSpec> specs() {
    return List.of(agent(), stop());
  }

  /** The tool's description: what it does, then the roles and models it may use. */
  String description() {
    StringBuilder text =
        new StringBuilder(
            "Delegates work to isolated subagents, each a child session of this one on any"
                + " backend: its transcript and costs roll up here, and it cannot delegate"
                + " further. Give exactly one of: description + prompt + subagent_type (one"
                + " subagent); parallel (up to "
                + Subagents.MAX_ITEMS
                + " at once, answered in order; one failure does not lose the others); chain"
                + " (one after another; "
                + Subagents.PREVIOUS
                + " in a prompt becomes the previous item's output). A subagent sees only its"
                + " prompt: put everything it needs in it. run_in_background answers at once"
                + " with agent ids and the results arrive later as a message; a call still"
                + " running after 25 minutes moves to the background the same way. Stop one"
                + " with agent_stop.\n\nRoles (subagent_type):");
    for (SubagentRoles.Role role : roles.all()) {
      text.append("\n- ").append(role.name()).append(": ").append(role.description());
    }
    return text.append(SubagentRoles.describeModels(models)).toString();
  }

  private Map<String, Object> roleSchema() {
    return Schema.withExamples(
        Schema.string("The role that does it (the list is in this tool's description).", 1, 64),
        "general-purpose");
  }

  private Map<String, Object> itemSchema() {
    return Schema.object()
        .description("One subagent's work.")
        .required(
            "description",
            Schema.string("A few words on what it does.", 1, Subagents.MAX_DESCRIPTION))
        .required(
            "prompt", Schema.string("The whole task, self-contained.", 1, Subagents.MAX_PROMPT))
        .required("subagent_type", roleSchema())
        .optional("model", Schema.string("Its model; default the call's, else the role's."))
        .optional("backend", Schema.string("Its backend; default the call's, else this session's."))
        .build();
  }

  private ToolSpec agent() {
    return ToolSpec.builder(AGENT, this::handleAgent)
        .title("Delegate to subagents")
        .description(description())
        .input(
            Schema.object()
                .optional(
                    "description",
                    Schema.string(
                        "One subagent: a few words on what it does.", 1, Subagents.MAX_DESCRIPTION))
                .optional(
                    "prompt",
                    Schema.string(
                        "One subagent: the whole task, self-contained.", 1, Subagents.MAX_PROMPT))
                .optional("subagent_type", roleSchema())
                .optional(
                    "parallel",
                    Schema.array(
                        "Several subagents at once.", itemSchema(), 1, Subagents.MAX_ITEMS, false))
                .optional(
                    "chain",
                    Schema.array(
                        "Several subagents one after another.",
                        itemSchema(),
                        1,
                        Subagents.MAX_ITEMS,
                        false))
                .optional("model", Schema.string("The model of every subagent of the call."))
                .optional("backend", Schema.string("The backend of every subagent of the call."))
                .optional(
                    "run_in_background",
                    Schema.withDefault(
                        Schema.bool("Answer at once; the results come later as a message."), false))
                .build())
        .output(
            Schema.object()
                .required("mode", Schema.enumOf("How it delegated.", "single", "parallel", "chain"))
                .required(
                    "background", Schema.bool("True when the results come later as a message."))
                .required(
                    "agents",
                    Schema.array("One per subagent, in order.", outcomeSchema(), 0, 0, false))
                .required("cost_usd", Schema.number("What they cost together so far."))
                .build())
        .hints(new ToolHints(false, false, false, true))
        .blocking()
        .build();
  }

  private static Map<String, Object> outcomeSchema() {
    Map<String, Object> text = Schema.nullable(Schema.string("Null when none."));
    return Schema.object()
        .description("A subagent.")
        .required("agent_id", Schema.string("Its id, for agent_stop."))
        .required("description", Schema.string("What it does."))
        .required("subagent_type", Schema.string("Its role."))
        .required("backend", Schema.string("Its backend."))
        .required("model", text)
        .required("session_id", Schema.string("Its child session, where its transcript is."))
        .required(
            "status",
            Schema.enumOf(
                "Where it stands.",
                "running",
                "completed",
                "failed",
                "stopped",
                "interrupted",
                "skipped"))
        .required("output", text)
        .required("error", text)
        .required("cost_usd", Schema.number("What its turn cost."))
        .build();
  }

  private ToolSpec stop() {
    return ToolSpec.builder(STOP, this::handleStop)
        .title("Stop a subagent")
        .description(
            "Stops a running subagent of this session (agent_id, as agent answered), with every"
                + " process it started, and discards what it produced. One that ended already is"
                + " left as it is.")
        .input(
            Schema.object()
                .required(
                    "agent_id",
                    Schema.pattern(
                        "The subagent to stop.", "^" + Subagents.AGENT_ID.pattern() + "$"))
                .build())
        .output(
            Schema.object()
                .required("agent_id", Schema.string("The subagent."))
                .required("stopped", Schema.bool("True when this call stopped it."))
                .required("status", Schema.string("Where it stands now."))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, true, true, false))
        .build();
  }

  private Subagents.Ran handleAgent(ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    Subagents.Run run;
    try {
      run =
          new Subagents.Run(
              sessionId(call),
              args.description(),
              args.prompt(),
              args.subagentType(),
              items(args.parallel()),
              items(args.chain()),
              args.model(),
              args.backend(),
              args.runInBackground());
    } catch (Sessions.BadRequest e) {
      throw ToolException.invalidArgument(e.getMessage());
    }
    ToolContext.ProgressSink sink = call.context().progress();
    return post(
        call,
        Subagents.RUN,
        run,
        null,
        Subagents.Ran.class,
        event -> {
          if (Subagents.Progress.EVENT.equals(event.path("event").asString(""))) {
            sink.report(
                event.path("done").asInt(),
                (double) event.path("total").asInt(),
                event.path("message").asString(null));
          }
        });
  }

  private Subagents.Stopped handleStop(ToolCall call) {
    StopArguments args = call.arguments(StopArguments.class);
    Subagents.Stop stop;
    try {
      stop = new Subagents.Stop(sessionId(call), args.agentId());
    } catch (Sessions.BadRequest e) {
      throw ToolException.invalidArgument(e.getMessage());
    }
    return post(call, Subagents.STOP, stop, STOP_DEADLINE, Subagents.Stopped.class, event -> {});
  }

  private static String sessionId(ToolCall call) {
    String id = call.context().session().sessionId();
    if (id == null) {
      throw new ToolException(
          Subagents.Codes.NO_SESSION,
          "Subagents are child sessions of the agent server, and this MCP server runs outside a"
              + " session (CORTEX_SESSION_ID is not set): delegate from a session ('cortex"
              + " sessions new').");
    }
    return id;
  }

  private <T> T post(
      ToolCall call,
      String route,
      Object body,
      Duration deadline,
      Class<T> type,
      java.util.function.Consumer<JsonNode> events) {
    JsonNode result =
        agentServer.post(route, body, deadline, call.context().cancellation(), events);
    try {
      return WireJson.mapper().treeToValue(result, type);
    } catch (JacksonException e) {
      throw new ToolException(
          ErrorCodes.INTERNAL,
          "The agent server's answer could not be read; is it the same version as this cortex?");
    }
  }
}
