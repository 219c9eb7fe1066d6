package dev.cortex.workers;

import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.GroupDescriptor;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.webhook.SubagentRoles;
import dev.cortex.protocol.webhook.Team;
import dev.cortex.server.client.AgentServerClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Team mode's two groups. {@code workers}, for a team's main session: {@code worker_spawn}, {@code
 * worker_send}, {@code worker_list}, {@code worker_stop} and {@code worker_answer}, each answering
 * at once (a worker's reports, questions and plans come to the main session as messages). {@code
 * worker-report}, for every worker: {@code mark_routine}. The agent server runs the workers (see
 * {@code docs/team.md}); the tools reach it through its webhook, for the calling session.
 */
public final class WorkersGroup {
  public static final String WORKERS = "workers";
  public static final String WORKER_REPORT = "worker-report";

  public static final GroupDescriptor WORKERS_DESCRIPTOR =
      GroupDescriptor.of(WORKERS, "cortex-workers", "Team mode: the main session's worker tools.");

  public static final GroupDescriptor REPORT_DESCRIPTOR =
      GroupDescriptor.of(
          WORKER_REPORT, "cortex-worker-report", "Team mode: the worker's report tool.");

  static final String WORKERS_INSTRUCTIONS =
      "workers: this session leads a team of persistent worker sessions. worker_spawn starts one"
          + " with its first task and worker_send gives it more; every tool answers at once, and"
          + " each worker's report, question or plan comes to this session later as a new"
          + " message. Answer a worker's question or plan with worker_answer (the request id is"
          + " in its message). worker_list shows the roster and unread routine updates;"
          + " worker_stop stops a worker's turn. Give a worker self-contained work: it sees only"
          + " what you send it.";

  static final String REPORT_INSTRUCTIONS =
      "worker-report: this session is a worker of a team. The final reply of each turn is"
          + " reported to the main session as a message; when a turn has nothing the main"
          + " session must act on, call mark_routine before ending it, and the reply is kept as"
          + " an unread update instead of waking the main session.";

  private static final Duration REQUEST = Duration.ofSeconds(60);

  private WorkersGroup() {}

  /**
   * The main session's group; {@code env} is the session's environment, whose {@code
   * CORTEX_SUBAGENT_*_MODELS} lists are named in {@code worker_spawn}'s description.
   */
  public static CapabilityGroup workers(AgentServerClient agentServer, Map<String, String> env) {
    Calls calls = new Calls(agentServer);
    return WORKERS_DESCRIPTOR
        .group(
            List.of(
                spawn(calls, SubagentRoles.models(env)),
                send(calls),
                list(calls),
                stop(calls),
                answer(calls)))
        .withInstructions(WORKERS_INSTRUCTIONS);
  }

  public static CapabilityGroup report(AgentServerClient agentServer) {
    return REPORT_DESCRIPTOR
        .group(List.of(routine(new Calls(agentServer))))
        .withInstructions(REPORT_INSTRUCTIONS);
  }

  record SpawnArguments(String name, String prompt, String backend, String model) {}

  record SendArguments(String worker, String message) {}

  record ListArguments(String worker) {}

  record StopArguments(String worker) {}

  record AnswerArguments(
      String requestId,
      List<Interactions.QuestionAnswer> answers,
      Boolean approved,
      String feedback) {}

  record NoArguments() {}

  private static Map<String, Object> workerSchema() {
    return Schema.string("The worker: its name (as worker_spawn gave it) or its id (wk-…).", 1, 64);
  }

  private static Map<String, Object> workerOutput() {
    Map<String, Object> text = Schema.nullable(Schema.string("Null when none."));
    return Schema.object()
        .description("A worker.")
        .required("worker_id", Schema.string("Its id."))
        .required("name", Schema.string("Its name in this team."))
        .required("session_id", Schema.string("Its session, where its transcript is."))
        .required("backend", text)
        .required("model", text)
        .required("state", Schema.enumOf("Whether a turn runs.", "running", "idle"))
        .required("last_status", text)
        .required("last_report", text)
        .required("last_report_at", text)
        .required("unread", Schema.integer("Its routine updates not read yet."))
        .required(
            "pending",
            Schema.array("The requests it waits on.", Schema.string("A request id."), 0, 0, false))
        .required("created_at", Schema.string("When it was spawned."))
        .build();
  }

  static ToolSpec spawn(Calls calls, Map<String, List<String>> models) {
    String description =
        "Starts a persistent worker session of this team with its first task and answers at"
            + " once. It keeps this session's backend and model unless backend/model say"
            + " otherwise. Each of its turns is reported here as a new message when it ends;"
            + " its questions and plans come here too (answer them with worker_answer). At"
            + " most "
            + Team.MAX_WORKERS
            + " workers per session."
            + SubagentRoles.describeModels(models);
    return ToolSpec.builder("worker_spawn", call -> calls.spawn(call))
        .title("Start a worker")
        .description(description)
        .input(
            Schema.object()
                .required(
                    "name",
                    Schema.pattern(
                        "Its name in this team: 1-32 lower-case letters, digits, '-' or '_'.",
                        "^" + Team.NAME.pattern() + "$"))
                .required(
                    "prompt", Schema.string("Its first task, self-contained.", 1, Team.MAX_PROMPT))
                .optional("backend", Schema.string("Its backend; default this session's."))
                .optional("model", Schema.string("Its model; default this session's."))
                .build())
        .output(
            Schema.object()
                .required("worker", workerOutput())
                .required("status", Schema.string("Where its first turn stands."))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, false, false, true))
        .build();
  }

  static ToolSpec send(Calls calls) {
    return ToolSpec.builder("worker_send", call -> calls.send(call))
        .title("Message a worker")
        .description(
            "Sends a message to a worker: it joins the worker's running turn, or starts a new"
                + " one. Answers at once; the worker's report comes later as a message.")
        .input(
            Schema.object()
                .required("worker", workerSchema())
                .required("message", Schema.string("The message.", 1, Team.MAX_MESSAGE))
                .build())
        .output(
            Schema.object()
                .required("worker", Schema.string("The worker's name."))
                .required("status", Schema.string("How the message went in: joined or started."))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, false, false, true))
        .build();
  }

  static ToolSpec list(Calls calls) {
    return ToolSpec.builder("worker_list", call -> calls.list(call))
        .title("List the workers")
        .description(
            "This session's workers: each one's state (running or idle), how its last turn"
                + " ended, the start of its last report, its unread routine updates and the"
                + " requests it waits on. With worker: that one worker and its whole last report"
                + " (which marks its updates read).")
        .input(Schema.object().optional("worker", workerSchema()).build())
        .output(
            Schema.object()
                .required(
                    "workers",
                    Schema.array("The workers, oldest first.", workerOutput(), 0, 0, false))
                .build())
        .hints(new ToolHints(true, false, true, false))
        .build();
  }

  static ToolSpec stop(Calls calls) {
    return ToolSpec.builder("worker_stop", call -> calls.stop(call))
        .title("Stop a worker's turn")
        .description(
            "Stops the worker's current turn (the worker itself stays, for later messages). Its"
                + " end is reported here as usual.")
        .input(Schema.object().required("worker", workerSchema()).build())
        .output(
            Schema.object()
                .required("worker", Schema.string("The worker's name."))
                .required("stopped", Schema.bool("True when a turn was running and was stopped."))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, true, true, false))
        .build();
  }

  static ToolSpec answer(Calls calls) {
    Map<String, Object> oneAnswer =
        Schema.object()
            .description("The answer to one question, in order.")
            .optional(
                "selected",
                Schema.array(
                    "The labels chosen.",
                    Schema.string("A label.", 1, Interactions.MAX_LABEL),
                    0,
                    Interactions.MAX_OPTIONS,
                    true))
            .optional("text", Schema.string("A free answer.", 0, Interactions.MAX_ANSWER_TEXT))
            .build();
    return ToolSpec.builder("worker_answer", call -> calls.answer(call))
        .title("Answer a worker")
        .description(
            "Answers a worker's pending question (answers, one per question) or plan (approved;"
                + " feedback says what to change when rejecting). The request id is in the"
                + " worker's message.")
        .input(
            Schema.object()
                .required(
                    "request_id",
                    Schema.pattern("The request.", "^" + Interactions.ID.pattern() + "$"))
                .optional(
                    "answers",
                    Schema.array(
                        "For a question.",
                        oneAnswer,
                        Interactions.MIN_QUESTIONS,
                        Interactions.MAX_QUESTIONS,
                        false))
                .optional("approved", Schema.bool("For a plan: approve it, or not."))
                .optional(
                    "feedback",
                    Schema.string("For a plan: what to change.", 0, Interactions.MAX_ANSWER_TEXT))
                .build())
        .output(
            Schema.object()
                .required("request_id", Schema.string("The request."))
                .required("worker", Schema.string("The worker that asked."))
                .required("kind", Schema.string("question or plan."))
                .required("state", Schema.string("The request's state now."))
                .build())
        .hints(new ToolHints(false, false, false, false))
        .build();
  }

  static ToolSpec routine(Calls calls) {
    return ToolSpec.builder("mark_routine", call -> calls.routine(call))
        .title("Mark this turn routine")
        .description(
            "Marks this turn as routine: its final reply is kept for the main session as an"
                + " unread update and does not wake it. A turn that fails or is stopped is still"
                + " reported as usual.")
        .input(Schema.object().build())
        .output(
            Schema.object()
                .required("execution_id", Schema.string("The turn marked routine."))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, false, true, false))
        .build();
  }

  /** The calls of the tools to the agent server, for the calling session. */
  static final class Calls {
    private final AgentServerClient agentServer;

    Calls(AgentServerClient agentServer) {
      this.agentServer = agentServer;
    }

    Team.Spawned spawn(ToolCall call) {
      SpawnArguments a = call.arguments(SpawnArguments.class);
      return post(
          call,
          Team.SPAWN,
          s -> new Team.Spawn(s, a.name(), a.prompt(), a.backend(), a.model()),
          Team.Spawned.class);
    }

    Team.Sent send(ToolCall call) {
      SendArguments a = call.arguments(SendArguments.class);
      return post(call, Team.SEND, s -> new Team.Send(s, a.worker(), a.message()), Team.Sent.class);
    }

    Team.Listed list(ToolCall call) {
      ListArguments a = call.arguments(ListArguments.class);
      return post(call, Team.LIST, s -> new Team.Roster(s, a.worker()), Team.Listed.class);
    }

    Team.Stopped stop(ToolCall call) {
      StopArguments a = call.arguments(StopArguments.class);
      return post(call, Team.STOP, s -> new Team.Stop(s, a.worker()), Team.Stopped.class);
    }

    Team.Answered answer(ToolCall call) {
      AnswerArguments a = call.arguments(AnswerArguments.class);
      return post(
          call,
          Team.ANSWER,
          s -> new Team.Answer(s, a.requestId(), a.answers(), a.approved(), a.feedback()),
          Team.Answered.class);
    }

    Team.Marked routine(ToolCall call) {
      call.arguments(NoArguments.class);
      return post(call, Team.ROUTINE, Team.Routine::new, Team.Marked.class);
    }

    private <T> T post(ToolCall call, String route, Function<String, Object> body, Class<T> type) {
      String sessionId = call.context().session().sessionId();
      if (sessionId == null) {
        throw new ToolException(
            Team.Codes.NO_SESSION,
            "Workers belong to a session of the agent server, and this MCP server runs outside"
                + " one (CORTEX_SESSION_ID is not set).");
      }
      Object request;
      try {
        request = body.apply(sessionId);
      } catch (Sessions.BadRequest e) {
        throw ToolException.invalidArgument(e.getMessage());
      }
      JsonNode result =
          agentServer.post(route, request, REQUEST, call.context().cancellation(), event -> {});
      try {
        return WireJson.mapper().treeToValue(result, type);
      } catch (JacksonException | IllegalArgumentException e) {
        throw new ToolException(
            ErrorCodes.INTERNAL,
            "The agent server's answer could not be read; is it the same version as this"
                + " cortex?");
      }
    }
  }
}
