package dev.cortex.interaction;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.protocol.session.Sessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code cortex_ask_user}: one to four questions for the session's person, free text or a choice of
 * options. Blocking (the default), the call waits for the answers, at most the interaction TTL;
 * with {@code blocking: false} it returns at once and the answers come later as the session's next
 * user message, once (a question nobody answers then expires without a word).
 */
final class AskUser {
  static final String NAME = "cortex_ask_user";

  private final Webhook webhook;

  AskUser(Webhook webhook) {
    this.webhook = webhook;
  }

  record OptionArgument(String label, String description) {}

  record QuestionArgument(
      String question,
      String header,
      List<OptionArgument> options,
      @JsonProperty("multiSelect") Boolean multiSelect) {}

  record Arguments(List<QuestionArgument> questions, String level, Boolean blocking) {}

  /** What the call answers. */
  record Answer(String question, String header, List<String> selected, String text) {}

  record Result(
      String requestId,
      String state,
      boolean blocking,
      List<Answer> answers,
      String answeredBy,
      String via,
      String expiresAt,
      String message) {}

  ToolSpec spec() {
    Map<String, Object> option =
        Schema.object()
            .description("A choice.")
            .required(
                "label",
                Schema.string(
                    "What the person picks, short (1-5 words).", 1, Interactions.MAX_LABEL))
            .optional(
                "description",
                Schema.string("What the choice means or implies.", 0, Interactions.MAX_DESCRIPTION))
            .build();
    Map<String, Object> question =
        Schema.object()
            .description("One question.")
            .required(
                "question",
                Schema.string(
                    "The question, complete and clear, ending with a question mark.",
                    1,
                    Interactions.MAX_QUESTION))
            .optional(
                "header",
                Schema.string(
                    "A very short label shown as a tag (at most 12 characters), e.g. 'Auth"
                        + " method'.",
                    1,
                    Interactions.MAX_HEADER))
            .optional(
                "options",
                Schema.array(
                    "2 to 4 choices; leave out for a free-text answer. The person may also answer"
                        + " in their own words.",
                    option,
                    Interactions.MIN_OPTIONS,
                    Interactions.MAX_OPTIONS,
                    false))
            .optional(
                "multiSelect",
                Schema.bool("True when several options may be chosen (default false)."))
            .build();
    return ToolSpec.builder(NAME, this::handle)
        .title("Ask the person")
        .description(
            "Asks the session's person one to four questions (free text, or 2-4 options each) and,"
                + " by default, waits for the answers (at most the 30-minute interaction TTL) and"
                + " returns them. Use it when you need a decision or a fact only the person has;"
                + " do not ask what you can find out yourself. With blocking: false the call"
                + " returns at once with the request id and you keep working: the answers arrive"
                + " later as an ordinary user message (a question nobody answers expires"
                + " silently). The person answers from a terminal ('cortex answer REQUEST_ID …')"
                + " or the session API.")
        .input(
            Schema.object()
                .required(
                    "questions",
                    Schema.array(
                        "The questions, 1 to 4.",
                        question,
                        Interactions.MIN_QUESTIONS,
                        Interactions.MAX_QUESTIONS,
                        false))
                .optional(
                    "level",
                    Schema.enumOf(
                        "How urgent or serious (default info; warn is warning).",
                        "info",
                        "warning",
                        "warn",
                        "error"))
                .optional(
                    "blocking",
                    Schema.bool(
                        "Wait for the answers (default true); false returns at once and the"
                            + " answers come as a later user message."))
                .build())
        .output(
            Schema.object()
                .required("request_id", Schema.string("The request, e.g. ia-3fa2c1d0e4b5."))
                .required(
                    "state",
                    Schema.enumOf(
                        "answered (blocking), or open (not blocking: the answers come later).",
                        "answered",
                        "open"))
                .required("blocking", Schema.bool("Whether the call waited."))
                .required(
                    "answers",
                    Schema.nullable(
                        Schema.array(
                            "One per question, in order (null while open).",
                            Schema.object()
                                .required("question", Schema.string("The question."))
                                .required("header", Schema.nullable(Schema.string("Its header.")))
                                .required(
                                    "selected",
                                    Schema.array(
                                        "The options chosen.",
                                        Schema.string("A label."),
                                        0,
                                        0,
                                        false))
                                .required(
                                    "text",
                                    Schema.nullable(Schema.string("What the person wrote.")))
                                .build(),
                            0,
                            0,
                            false)))
                .required(
                    "answered_by",
                    Schema.nullable(Schema.string("Who answered (null while open).")))
                .required(
                    "via",
                    Schema.nullable(
                        Schema.string("Where the answer came from: terminal, api, workbench…")))
                .required("expires_at", Schema.string("When the question expires (ISO 8601)."))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, false, false, false))
        .blocking()
        .build();
  }

  private Result handle(ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    Interactions.Ask ask;
    try {
      List<Interactions.Question> questions = new ArrayList<>();
      for (QuestionArgument q : args.questions()) {
        List<Interactions.Option> options =
            q.options() == null
                ? null
                : q.options().stream()
                    .map(o -> new Interactions.Option(o.label(), o.description()))
                    .toList();
        questions.add(
            new Interactions.Question(q.question(), q.header(), options, q.multiSelect()));
      }
      ask = new Interactions.Ask(Webhook.sessionId(call), questions, args.level(), args.blocking());
    } catch (Sessions.BadRequest e) {
      throw new ToolException(ErrorCodes.INVALID_ARGUMENT, e.getMessage());
    }
    Interactions.Opened opened =
        webhook.post(call, Interactions.ASK, ask, Interactions.Opened.class);
    Interactions.View view = opened.interaction();
    if (!ask.blocks()) {
      return new Result(
          view.id(),
          view.state(),
          false,
          null,
          null,
          null,
          view.expiresAt(),
          "The question is posted as "
              + view.id()
              + "; keep working. The answers arrive as a user message when the person answers"
              + " (nothing comes if nobody answers before "
              + view.expiresAt()
              + ").");
    }
    Interactions.View ended = webhook.await(call, opened);
    switch (ended.state()) {
      case Interactions.ANSWERED -> {
        // below
      }
      case Interactions.EXPIRED ->
          throw new ToolException(
              Interactions.Codes.EXPIRED,
              "Nobody answered request "
                  + ended.id()
                  + " within the interaction TTL; decide without the answers, or ask again"
                  + " later.");
      default ->
          throw new ToolException(
              Interactions.Codes.CANCELLED, "Request " + ended.id() + " was withdrawn.");
    }
    List<Answer> answers = new ArrayList<>();
    for (int i = 0; i < ended.questions().size(); i++) {
      Interactions.Question q = ended.questions().get(i);
      Interactions.QuestionAnswer a = ended.answer().answers().get(i);
      answers.add(new Answer(q.question(), q.header(), a.selected(), a.text()));
    }
    return new Result(
        ended.id(),
        ended.state(),
        true,
        answers,
        ended.answer().by(),
        ended.answer().via(),
        ended.expiresAt(),
        "The person answered.");
  }
}
