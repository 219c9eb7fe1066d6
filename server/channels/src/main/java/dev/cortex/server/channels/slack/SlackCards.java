package dev.cortex.server.channels.slack;

import dev.cortex.base.Json;
import dev.cortex.protocol.session.Interactions;
import java.util.List;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A question or a plan of a Slack session as a message with buttons (Block Kit): each option of a
 * question is a button whose action names the question and the option and whose value is the
 * interaction's id; a plan has Approve and Reject. A click comes back as a {@code block_actions}
 * payload that {@link #action} reads.
 */
final class SlackCards {
  static final String ANSWER = "cortex_answer";
  static final String APPROVE = "cortex_approve";
  static final String REJECT = "cortex_reject";

  /** The most buttons Slack puts in one actions block. */
  static final int MAX_BUTTONS = 25;

  private SlackCards() {}

  /** The text shown where blocks are not (notifications, old clients). */
  static String fallback(Interactions.View view) {
    if (view.plan() != null) {
      return "A plan waits for your approval.";
    }
    return "A question waits for your answer: " + view.questions().get(0).question();
  }

  /** The blocks of {@code view}. */
  static ArrayNode blocks(Interactions.View view) {
    ArrayNode blocks = Json.mapper().createArrayNode();
    if (view.plan() != null) {
      String summary = view.plan().summary() == null ? "" : view.plan().summary();
      section(blocks, "*A plan waits for your approval.*\n" + limit(summary, 2900));
      if (view.plan().content() != null) {
        section(blocks, "```" + limit(view.plan().content(), 2800) + "```");
      }
      ArrayNode buttons = actions(blocks, "plan");
      button(buttons, "Approve", APPROVE, view.id(), "primary");
      button(buttons, "Reject", REJECT, view.id(), "danger");
      return blocks;
    }
    List<Interactions.Question> questions = view.questions();
    for (int q = 0; q < questions.size(); q++) {
      Interactions.Question question = questions.get(q);
      section(
          blocks,
          (question.header() == null ? "" : "*" + question.header() + "*\n")
              + limit(question.question(), 2800));
      if (question.options() == null) {
        section(
            blocks,
            "_This question takes a free answer: give it in the workbench, or with `cortex answer "
                + view.id()
                + "`._");
        continue;
      }
      ArrayNode buttons = actions(blocks, "q" + q);
      List<Interactions.Option> options = question.options();
      for (int o = 0; o < options.size() && o < MAX_BUTTONS; o++) {
        button(buttons, options.get(o).label(), ANSWER + ":" + q + ":" + o, view.id(), null);
      }
    }
    return blocks;
  }

  /** A click read from a {@code block_actions} action: what it answers. */
  record Action(String interaction, String kind, int question, int option) {}

  /** The click of {@code actionId} with {@code value}, or null when it is none of ours. */
  static Action action(String actionId, String value) {
    if (value == null || !value.matches("[A-Za-z0-9_-]{1,64}")) {
      return null;
    }
    if (actionId.equals(APPROVE) || actionId.equals(REJECT)) {
      return new Action(value, actionId, -1, -1);
    }
    String[] parts = actionId.split(":");
    if (parts.length == 3 && parts[0].equals(ANSWER)) {
      try {
        return new Action(value, ANSWER, Integer.parseInt(parts[1]), Integer.parseInt(parts[2]));
      } catch (NumberFormatException e) {
        return null;
      }
    }
    return null;
  }

  private static void section(ArrayNode blocks, String markdown) {
    ObjectNode section = blocks.addObject();
    section.put("type", "section");
    ObjectNode text = section.putObject("text");
    text.put("type", "mrkdwn");
    text.put("text", markdown);
  }

  private static ArrayNode actions(ArrayNode blocks, String id) {
    ObjectNode actions = blocks.addObject();
    actions.put("type", "actions");
    actions.put("block_id", id);
    return actions.putArray("elements");
  }

  private static void button(
      ArrayNode buttons, String label, String actionId, String value, String style) {
    ObjectNode button = buttons.addObject();
    button.put("type", "button");
    ObjectNode text = button.putObject("text");
    text.put("type", "plain_text");
    text.put("text", limit(label, 75));
    button.put("action_id", actionId);
    button.put("value", value);
    if (style != null) {
      button.put("style", style);
    }
  }

  private static String limit(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }
}
