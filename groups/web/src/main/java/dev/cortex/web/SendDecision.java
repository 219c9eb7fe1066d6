package dev.cortex.web;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.session.Web;
import java.util.List;
import java.util.Map;

/**
 * {@code send_decision}: decisions the agent took, as cards the person may approve, question or
 * change. It does not wait: an explain or change comes later as a user message.
 */
final class SendDecision {
  static final String NAME = "send_decision";

  private SendDecision() {}

  record DecisionArgument(String title, String decision, String context, String reasoning) {}

  record Arguments(List<DecisionArgument> decisions) {}

  record Result(String attachment, int decisions, String message) {}

  static ToolSpec spec(Webhook webhook) {
    Map<String, Object> decision =
        Schema.object()
            .description("One decision you took.")
            .required("title", Schema.string("A short title.", 1, Web.MAX_DECISION_TITLE))
            .required("decision", Schema.string("What you decided.", 1, Web.MAX_DECISION_TEXT))
            .required(
                "context",
                Schema.string("The situation that called for it.", 1, Web.MAX_DECISION_TEXT))
            .required("reasoning", Schema.string("Why.", 1, Web.MAX_DECISION_TEXT))
            .build();
    return ToolSpec.builder(NAME, call -> handle(webhook, call))
        .title("Record decisions")
        .description(
            "Records decisions you just took on the person's behalf (1 to 10) and shows them as"
                + " cards in the web chat; keep working, the call does not wait. The person may"
                + " approve a decision, ask you to explain it or ask for a change: the last two"
                + " reach you later as a user message. Use cortex_ask_user instead when you need"
                + " the person's answer before going on.")
        .input(
            Schema.object()
                .required(
                    "decisions",
                    Schema.array("The decisions, 1 to 10.", decision, 1, Web.MAX_DECISIONS, false))
                .build())
        .output(
            Schema.object()
                .required("attachment", Schema.string("The card's attachment id."))
                .required("decisions", Schema.integer("How many decisions were recorded."))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, false, false, false))
        .build();
  }

  private static Result handle(Webhook webhook, ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    Web.SendDecision request =
        Webhook.request(
            call,
            session ->
                new Web.SendDecision(
                    session,
                    args.decisions() == null
                        ? null
                        : args.decisions().stream()
                            .map(
                                d ->
                                    d == null
                                        ? null
                                        : new Web.Decision(
                                            d.title(), d.decision(), d.context(), d.reasoning()))
                            .toList()));
    Web.Sent sent = webhook.post(call, Web.SEND_DECISION, request, Web.Sent.class);
    int n = request.decisions().size();
    return new Result(
        sent.attachment(),
        n,
        (n == 1 ? "The decision is" : n + " decisions are")
            + " shown to the person; keep working.");
  }
}
