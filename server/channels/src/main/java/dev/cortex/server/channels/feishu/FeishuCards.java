package dev.cortex.server.channels.feishu;

import dev.cortex.base.Json;
import dev.cortex.protocol.session.Interactions;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A question or a plan of a Feishu session as a message card: each option of a question is a button
 * whose value names the interaction, the question and the option; a plan has Approve and Reject. A
 * click comes back as a {@code card.action.trigger} event whose action value {@link #action} reads.
 */
final class FeishuCards {
  static final String ANSWER = "answer";
  static final String APPROVE = "approve";
  static final String REJECT = "reject";

  /** The most buttons of one question. */
  static final int MAX_BUTTONS = 20;

  private FeishuCards() {}

  /** The card of {@code view}. */
  static ObjectNode card(Interactions.View view) {
    ObjectNode card = Json.mapper().createObjectNode();
    card.putObject("config").put("wide_screen_mode", true);
    ObjectNode header = card.putObject("header");
    header.put("template", view.plan() != null ? "orange" : "blue");
    ObjectNode title = header.putObject("title");
    title.put("tag", "plain_text");
    title.put(
        "content",
        view.plan() != null
            ? "A plan waits for your approval"
            : "A question waits for your answer");
    ArrayNode elements = card.putArray("elements");
    if (view.plan() != null) {
      String summary = view.plan().summary() == null ? "" : view.plan().summary();
      markdown(elements, limit(summary, 2900));
      if (view.plan().content() != null) {
        markdown(elements, "```\n" + limit(view.plan().content(), 2800) + "\n```");
      }
      ArrayNode buttons = actions(elements);
      button(buttons, "Approve", "primary", value(view.id(), APPROVE, -1, -1));
      button(buttons, "Reject", "danger", value(view.id(), REJECT, -1, -1));
      return card;
    }
    List<Interactions.Question> questions = view.questions();
    for (int q = 0; q < questions.size(); q++) {
      Interactions.Question question = questions.get(q);
      markdown(
          elements,
          (question.header() == null ? "" : "**" + question.header() + "**\n")
              + limit(question.question(), 2800));
      if (question.options() == null) {
        markdown(
            elements,
            "*This question takes a free answer: give it in the workbench, or with `cortex answer "
                + view.id()
                + "`.*");
        continue;
      }
      ArrayNode buttons = actions(elements);
      List<Interactions.Option> options = question.options();
      for (int o = 0; o < options.size() && o < MAX_BUTTONS; o++) {
        button(buttons, options.get(o).label(), "default", value(view.id(), ANSWER, q, o));
      }
    }
    return card;
  }

  /** A click read from a button's value: what it answers. */
  record Action(String interaction, String kind, int question, int option) {}

  /** The click of a button whose value is {@code value}, or null when it is none of ours. */
  static Action action(JsonNode value) {
    String interaction = value.path("interaction").asString(null);
    String kind = value.path("cortex").asString("");
    if (interaction == null || !interaction.matches("[A-Za-z0-9_-]{1,64}")) {
      return null;
    }
    switch (kind) {
      case APPROVE:
      case REJECT:
        return new Action(interaction, kind, -1, -1);
      case ANSWER:
        if (!value.path("question").isInt() || !value.path("option").isInt()) {
          return null;
        }
        return new Action(
            interaction, kind, value.path("question").asInt(), value.path("option").asInt());
      default:
        return null;
    }
  }

  private static ObjectNode value(String id, String kind, int question, int option) {
    ObjectNode value = Json.mapper().createObjectNode();
    value.put("cortex", kind);
    value.put("interaction", id);
    if (question >= 0) {
      value.put("question", question);
      value.put("option", option);
    }
    return value;
  }

  private static void markdown(ArrayNode elements, String content) {
    ObjectNode div = elements.addObject();
    div.put("tag", "div");
    ObjectNode text = div.putObject("text");
    text.put("tag", "lark_md");
    text.put("content", content);
  }

  private static ArrayNode actions(ArrayNode elements) {
    ObjectNode actions = elements.addObject();
    actions.put("tag", "action");
    return actions.putArray("actions");
  }

  private static void button(ArrayNode buttons, String label, String type, ObjectNode value) {
    ObjectNode button = buttons.addObject();
    button.put("tag", "button");
    ObjectNode text = button.putObject("text");
    text.put("tag", "plain_text");
    text.put("content", limit(label, 100));
    button.put("type", type);
    button.set("value", value);
  }

  private static String limit(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }
}
