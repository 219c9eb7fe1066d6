package dev.cortex.interaction;

import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.protocol.session.Sessions;

/**
 * {@code cortex_plan_enter} and {@code cortex_plan_exit}: the read-only planning protocol. Entering
 * records that the session plans and tells the agent the rules; exiting submits the plan file for a
 * person's approval and waits for the decision (at most the interaction TTL).
 */
final class PlanTools {
  static final String ENTER = "cortex_plan_enter";
  static final String EXIT = "cortex_plan_exit";

  /** What the agent is told on entering. */
  static final String PROTOCOL =
      "You are planning now, read-only: research first (read files, search, run commands that"
          + " change nothing); do not edit, write or run anything that changes state. Write the"
          + " plan as a Markdown file under plan/ in the working directory (e.g. plan/PLAN.md):"
          + " the goal, the steps, the files to change, the risks and how you will check the"
          + " result. Then call cortex_plan_exit with its path, and implement only after the"
          + " person approved it; if they reject it, revise the plan with their feedback and"
          + " submit it again.";

  private PlanTools() {}

  record EnterArguments(String reasoning) {}

  record Entered(boolean planning, String enteredAt, String instructions) {}

  record ExitArguments(String planFilePath, String summary) {}

  record Decided(
      String requestId, boolean approved, String feedback, String decidedBy, String message) {}

  static ToolSpec enter(Webhook webhook) {
    return ToolSpec.builder(ENTER, call -> handleEnter(webhook, call))
        .title("Enter planning")
        .description(
            "Enters the read-only planning protocol for a task that needs a plan the person"
                + " approves before you change anything: research, write the plan under plan/,"
                + " then submit it with cortex_plan_exit and implement only after approval.")
        .input(
            Schema.object()
                .optional(
                    "reasoning",
                    Schema.string(
                        "Why this task needs a plan first.", 0, Interactions.MAX_REASONING))
                .build())
        .output(
            Schema.object()
                .required("planning", Schema.bool("True: the session is planning."))
                .required("entered_at", Schema.string("When (ISO 8601)."))
                .required("instructions", Schema.string("The rules of the planning protocol."))
                .build())
        .hints(new ToolHints(false, false, true, false))
        .build();
  }

  static ToolSpec exit(Webhook webhook) {
    return ToolSpec.builder(EXIT, call -> handleExit(webhook, call))
        .title("Submit the plan for approval")
        .description(
            "Reads the plan file (relative to the session's working directory, inside it, at most"
                + " 256 KiB of UTF-8 text), submits it to the person for approval and waits for"
                + " the decision (at most the 30-minute interaction TTL). Approved: implement the"
                + " plan. Rejected: the person's feedback says what to change; revise the plan"
                + " and submit it again.")
        .input(
            Schema.object()
                .required(
                    "plan_file_path",
                    Schema.string(
                        "The plan file, e.g. plan/PLAN.md (relative to the working directory).",
                        1,
                        Interactions.MAX_PATH))
                .optional(
                    "summary",
                    Schema.string(
                        "A few lines on the plan for the person.", 0, Interactions.MAX_SUMMARY))
                .build())
        .output(
            Schema.object()
                .required("request_id", Schema.string("The approval request."))
                .required("approved", Schema.bool("Whether the person approved the plan."))
                .required(
                    "feedback",
                    Schema.nullable(Schema.string("What the person said (with a rejection).")))
                .required("decided_by", Schema.string("Who decided."))
                .required("message", Schema.string("What to do next, in a sentence."))
                .build())
        .hints(new ToolHints(false, false, false, false))
        .blocking()
        .build();
  }

  private static Entered handleEnter(Webhook webhook, ToolCall call) {
    EnterArguments args = call.arguments(EnterArguments.class);
    Interactions.PlanEnter enter;
    try {
      enter = new Interactions.PlanEnter(Webhook.sessionId(call), args.reasoning());
    } catch (Sessions.BadRequest e) {
      throw new ToolException(ErrorCodes.INVALID_ARGUMENT, e.getMessage());
    }
    Interactions.PlanEntered entered =
        webhook.post(call, Interactions.PLAN_ENTER, enter, Interactions.PlanEntered.class);
    return new Entered(true, entered.enteredAt(), PROTOCOL);
  }

  private static Decided handleExit(Webhook webhook, ToolCall call) {
    ExitArguments args = call.arguments(ExitArguments.class);
    Interactions.PlanSubmit submit;
    try {
      submit =
          new Interactions.PlanSubmit(Webhook.sessionId(call), args.planFilePath(), args.summary());
    } catch (Sessions.BadRequest e) {
      throw new ToolException(ErrorCodes.INVALID_ARGUMENT, e.getMessage());
    }
    Interactions.Opened opened =
        webhook.post(call, Interactions.PLAN_SUBMIT, submit, Interactions.Opened.class);
    Interactions.View ended = webhook.await(call, opened);
    if (ended.state().equals(Interactions.EXPIRED)) {
      throw new ToolException(
          Interactions.Codes.EXPIRED,
          "Nobody decided on plan "
              + ended.id()
              + " within the interaction TTL; do not implement it: submit it again later.");
    }
    if (!ended.state().equals(Interactions.ANSWERED)) {
      throw new ToolException(
          Interactions.Codes.CANCELLED, "Plan " + ended.id() + " was withdrawn.");
    }
    boolean approved = Boolean.TRUE.equals(ended.answer().approved());
    return new Decided(
        ended.id(),
        approved,
        ended.answer().feedback(),
        ended.answer().by(),
        approved
            ? "The plan is approved: implement it."
            : "The plan is rejected: revise it with the feedback and submit it again; do not"
                + " implement it.");
  }
}
