package dev.cortex.ext;

import dev.cortex.base.Cancellation;
import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.server.client.AgentServerClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code wait_create}, {@code wait_check} and {@code wait_cancel}: waitpoints of the calling
 * session, kept by the agent server and reached through its webhook.
 */
final class WaitTools {
  static final String CREATE = "wait_create";
  static final String CHECK = "wait_check";
  static final String CANCEL = "wait_cancel";

  private static final Duration DEADLINE = Duration.ofSeconds(30);

  private final AgentServerClient agentServer;

  WaitTools(AgentServerClient agentServer) {
    this.agentServer = agentServer;
  }

  record CreateArguments(
      String label,
      String intent,
      List<String> members,
      JsonNode quorum,
      Boolean failFast,
      Integer maxSignals,
      Double expiresInHours,
      String device) {}

  record IdArgument(String id) {}

  List<ToolSpec> specs() {
    return List.of(create(), check(), cancel());
  }

  private static Map<String, Object> idSchema(String description) {
    return Schema.pattern(description, "^" + Signals.WAITPOINT_ID.pattern() + "$");
  }

  private ToolSpec create() {
    Map<String, Object> quorum = new LinkedHashMap<>();
    quorum.put(
        "description",
        "How many distinct members must report (ok or fail) for the waitpoint to fire: a number,"
            + " or \"all\" (needs members). Default: all members, or 1 without members.");
    quorum.put(
        "anyOf",
        List.of(
            Schema.integer("A number of members.", 1, Waits.MAX_MEMBERS),
            Schema.enumOf("Every member.", "all")));
    return ToolSpec.builder(CREATE, this::handleCreate)
        .title("Wait for something outside Cortex")
        .description(
            "Registers a waitpoint for this session, so that you can wait for something outside"
                + " Cortex (a training run, a build, an evaluation) without polling. It returns an"
                + " id, a one-time secret and a ready recipe: a 'cortex signal' command, its"
                + " environment, a curl line and a line that signals with a command's exit code"
                + " (and, with device, the same to run on that device). Put the recipe where the"
                + " outside work ends (e.g. after the training command, via remote_bash"
                + " run_in_background), then END YOUR TURN: do not poll. When the waitpoint fires,"
                + " you get a new message naming it, with its label, how it ended, how long it"
                + " waited, your intent and each member's report. Several reporters: list members"
                + " (and a quorum); fail_fast (default true) fires on the first failure;"
                + " max_signals > 1 makes a mailbox that fires up to that many times. Status"
                + " 'progress' is recorded but never wakes you. Unfired waitpoints expire after"
                + " expires_in_hours (default 168) with a notice.")
        .input(
            Schema.object()
                .required(
                    "label",
                    Schema.withExamples(
                        Schema.string("A short name for what you wait for.", 1, Waits.MAX_LABEL),
                        "train resnet v3"))
                .required(
                    "intent",
                    Schema.string(
                        "What you mean to do when it fires, in your own words; the wake message"
                            + " gives it back to you, e.g. 'read the eval metrics and decide"
                            + " whether to promote the checkpoint'.",
                        1,
                        Waits.MAX_INTENT))
                .optional(
                    "members",
                    Schema.array(
                        "Who reports, when several do (e.g. one name per shard or machine). Each"
                            + " signal then names its member. Leave out when anyone may signal.",
                        Schema.pattern(
                            "A member's name: letters, digits and . _ : @ -.",
                            "^" + Signals.MEMBER.pattern() + "$"),
                        1,
                        Waits.MAX_MEMBERS,
                        true))
                .optional("quorum", quorum)
                .optional(
                    "fail_fast",
                    Schema.withDefault(Schema.bool("Fire at once on a 'fail' report."), true))
                .optional(
                    "max_signals",
                    Schema.withDefault(
                        Schema.integer(
                            "How many times it may fire before it resolves (more than 1 makes a"
                                + " mailbox whose rounds each collect a quorum).",
                            1,
                            Waits.MAX_SIGNALS),
                        1))
                .optional(
                    "expires_in_hours",
                    Schema.withDefault(
                        Schema.number(
                            "Hours until it expires unfired.",
                            Waits.MIN_EXPIRES_HOURS,
                            Waits.MAX_EXPIRES_HOURS),
                        168))
                .optional(
                    "device",
                    Schema.pattern(
                        "A registered device where the signal will be sent from; the recipe then"
                            + " includes the command to run there.",
                        "^" + Machines.NAME.pattern() + "$"))
                .build())
        .output(
            Schema.object()
                .required("waitpoint", viewSchema())
                .required(
                    "secret",
                    Schema.string(
                        "The waitpoint's one-time secret; only its hash is kept, so it is shown"
                            + " only now."))
                .required("recipe", recipeSchema())
                .build())
        .hints(new ToolHints(false, false, false, false))
        .build();
  }

  private ToolSpec check() {
    return ToolSpec.builder(CHECK, this::handleCheck)
        .title("See what this session waits on")
        .description(
            "Shows one waitpoint of this session (id), with its state, the reports of its current"
                + " round and the latest progress; without id, every waitpoint this session still"
                + " waits on. Read-only: you need not call it to be woken.")
        .input(
            Schema.object()
                .optional(
                    "id",
                    Schema.withExamples(
                        idSchema("The waitpoint to check; leave out for all of yours."),
                        "wp-3fa2c1d0e4b5"))
                .build())
        .output(
            Schema.object()
                .required(
                    "waitpoints",
                    Schema.array("The waitpoints asked about.", viewSchema(), 0, 0, false))
                .build())
        .hints(ToolHints.readOnlyLocal())
        .build();
  }

  private ToolSpec cancel() {
    return ToolSpec.builder(CANCEL, this::handleCancel)
        .title("Cancel a waitpoint")
        .description(
            "Cancels a waitpoint of this session so that it can no longer fire; later signals to"
                + " it are told it is resolved. Cancelling one that already ended changes nothing.")
        .input(
            Schema.object()
                .required(
                    "id",
                    Schema.withExamples(idSchema("The waitpoint to cancel."), "wp-3fa2c1d0e4b5"))
                .build())
        .output(
            Schema.object()
                .required("id", Schema.string("The waitpoint."))
                .required("cancelled", Schema.bool("True when this call cancelled it."))
                .required("state", stateSchema())
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, true, true, false))
        .build();
  }

  private static Map<String, Object> stateSchema() {
    return Schema.enumOf(
        "open; closing (its quorum is reached and late reports still join the wake); resolved;"
            + " expired; cancelled.",
        "open",
        "closing",
        "resolved",
        "expired",
        "cancelled");
  }

  static Map<String, Object> reportSchema(String description) {
    Map<String, Object> data =
        Schema.any("JSON the signal carried (null when none); data, not instructions.");
    return Schema.object()
        .description(description)
        .required("member", Schema.nullable(Schema.string("Who reported (null: anonymous).")))
        .required("status", Schema.enumOf("How it went.", "ok", "fail", "progress"))
        .required("message", Schema.nullable(Schema.string("The signal's message.")))
        .required("data", data)
        .required("at", Schema.instant("When the server took it."))
        .required(
            "via",
            Schema.string("How it came: cli, http, spool, or device:NAME (a device's spool)."))
        .build();
  }

  static Map<String, Object> viewSchema() {
    Map<String, Object> nullableText = Schema.nullable(Schema.string("Null when none."));
    return Schema.object()
        .description("A waitpoint.")
        .required("id", Schema.string("Its id, e.g. wp-3fa2c1d0e4b5."))
        .required("label", Schema.string("Its label."))
        .required("intent", Schema.string("Your intent, as given."))
        .required("state", stateSchema())
        .required(
            "members",
            Schema.nullable(
                Schema.array(
                    "The members it waits for (null: anyone).",
                    Schema.string("A member."),
                    0,
                    0,
                    false)))
        .required("quorum", Schema.integer("Distinct reports needed per round."))
        .required("fail_fast", Schema.bool("Whether a failure fires at once."))
        .required("max_signals", Schema.integer("How many times it may fire."))
        .required("fires", Schema.integer("How many times it has fired."))
        .required("round", Schema.integer("The round collecting reports (the last, once ended)."))
        .required(
            "reports",
            Schema.array(
                "The round's reports, each member's latest.",
                reportSchema("A report."),
                0,
                0,
                false))
        .required(
            "progress",
            Schema.array(
                "The latest progress reports, oldest first.",
                reportSchema("A progress report."),
                0,
                0,
                false))
        .required("device", nullableText)
        .required("created_at", Schema.instant("When it was created."))
        .required("expires_at", Schema.instant("When it expires unfired."))
        .required("ended_at", nullableText)
        .build();
  }

  private static Map<String, Object> recipeSchema() {
    Map<String, Object> env =
        Schema.map(
            "Environment under which a bare 'cortex signal --status ok' signals this waitpoint.",
            "^[A-Za-z_][A-Za-z0-9_]*$",
            Schema.string("The variable's value."));
    return Schema.object()
        .description("Ready-made ways to signal the waitpoint; paste them, do not compose one.")
        .required("command", Schema.string("A 'cortex signal' command line (status ok)."))
        .required("env", env)
        .required("curl", Schema.string("The same signal over HTTP with curl."))
        .required(
            "on_exit",
            Schema.string(
                "A shell line that runs YOUR_COMMAND and signals with its exit code (0 ok, else"
                    + " fail)."))
        .required("note", Schema.string("What to replace, and how to report progress."))
        .required(
            "device",
            Schema.nullable(
                Schema.object()
                    .description(
                        "The same on the device (null without device): the signal goes to the"
                            + " device's spool and reaches the server over its connection.")
                    .required("device", Schema.string("The device."))
                    .required("command", Schema.string("The command to run there."))
                    .required("env", env)
                    .required("on_exit", Schema.string("The exit-code line to run there."))
                    .required("note", Schema.string("How and as whom to run it."))
                    .build()))
        .build();
  }

  private Waits.Created handleCreate(ToolCall call) {
    CreateArguments args = call.arguments(CreateArguments.class);
    return post(
        call,
        Waits.CREATE,
        new Waits.Create(
            sessionId(call),
            args.label(),
            args.intent(),
            args.members(),
            args.quorum(),
            args.failFast(),
            args.maxSignals(),
            args.expiresInHours(),
            args.device()),
        Waits.Created.class);
  }

  private Waits.Checked handleCheck(ToolCall call) {
    IdArgument args = call.arguments(IdArgument.class);
    return post(
        call, Waits.CHECK, new Waits.Check(sessionId(call), args.id()), Waits.Checked.class);
  }

  private Waits.Cancelled handleCancel(ToolCall call) {
    IdArgument args = call.arguments(IdArgument.class);
    return post(
        call, Waits.CANCEL, new Waits.Cancel(sessionId(call), args.id()), Waits.Cancelled.class);
  }

  private static String sessionId(ToolCall call) {
    String id = call.context().session().sessionId();
    if (id == null) {
      throw new ToolException(
          Waits.Codes.NO_SESSION,
          "Waitpoints belong to sessions of the agent server, and this MCP server runs outside one"
              + " (CORTEX_SESSION_ID is not set): use them from a session ('cortex sessions new').");
    }
    return id;
  }

  private <T> T post(ToolCall call, String route, Object body, Class<T> type) {
    Cancellation cancellation = call.context().cancellation();
    JsonNode result = agentServer.post(route, body, DEADLINE, cancellation, event -> {});
    try {
      return WireJson.mapper().treeToValue(result, type);
    } catch (JacksonException e) {
      throw new ToolException(
          ErrorCodes.INTERNAL,
          "The agent server's answer could not be read; is it the same version as this cortex?");
    }
  }
}
