package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.session.Interactions;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;

/**
 * A person's answer checked against what was asked, and the message that brings the answer of a
 * question that did not block to its session.
 */
final class Answers {
  private Answers() {}

  /** The answer as kept, once it fits the interaction; else {@code INVALID_ARGUMENT}. */
  static Interactions.Answered check(
      Interactions.View asked, Interactions.Answer answer, Instant at) {
    if (asked.kind().equals(Interactions.PLAN)) {
      if (answer.approve() == null) {
        throw invalid(
            "Request " + asked.id() + " is a plan: approve it, or reject it with feedback.");
      }
      return new Interactions.Answered(
          null, answer.approve(), answer.feedback(), answer.by(), answer.via(), at.toString());
    }
    if (answer.answers() == null) {
      throw invalid(
          "Request " + asked.id() + " is a question: give one answer per question, in order.");
    }
    List<Interactions.Question> questions = asked.questions();
    if (answer.answers().size() != questions.size()) {
      throw invalid(
          "Request "
              + asked.id()
              + " asks "
              + questions.size()
              + " question(s); the answer gives "
              + answer.answers().size()
              + ".");
    }
    for (int i = 0; i < questions.size(); i++) {
      fits(i + 1, questions.get(i), answer.answers().get(i));
    }
    return new Interactions.Answered(
        answer.answers(), null, null, answer.by(), answer.via(), at.toString());
  }

  private static void fits(int n, Interactions.Question q, Interactions.QuestionAnswer a) {
    List<String> labels = Interactions.labels(q.options());
    if (!a.selected().isEmpty() && labels.isEmpty()) {
      throw invalid("Question " + n + " has no options: answer it with text.");
    }
    for (String selected : a.selected()) {
      if (!labels.contains(selected)) {
        throw invalid(
            "Question " + n + " has no option '" + selected + "'; its options are " + labels + ".");
      }
    }
    if (new HashSet<>(a.selected()).size() != a.selected().size()) {
      throw invalid("Question " + n + ": an option is selected twice.");
    }
    if (a.selected().size() > 1 && !q.multiple()) {
      throw invalid("Question " + n + " takes one option, not " + a.selected().size() + ".");
    }
  }

  /** The user message that brings a non-blocking question's answers to its session. */
  static String message(Interactions.View answered) {
    StringBuilder text =
        new StringBuilder("The person answered your question ")
            .append(answered.id())
            .append(" (asked without waiting):\n");
    List<Interactions.Question> questions = answered.questions();
    List<Interactions.QuestionAnswer> answers = answered.answer().answers();
    for (int i = 0; i < questions.size(); i++) {
      Interactions.Question q = questions.get(i);
      text.append("\nQ")
          .append(i + 1)
          .append(q.header() == null ? "" : " [" + q.header() + "]")
          .append(": ")
          .append(q.question())
          .append("\nA")
          .append(i + 1)
          .append(": ")
          .append(render(answers.get(i)))
          .append('\n');
    }
    return text.toString();
  }

  static String render(Interactions.QuestionAnswer a) {
    String chosen = String.join(", ", a.selected());
    if (a.text() == null || a.text().isBlank()) {
      return chosen;
    }
    return chosen.isEmpty() ? a.text() : chosen + " — " + a.text();
  }

  private static CodedException invalid(String message) {
    return new CodedException(ErrorCodes.INVALID_ARGUMENT, message);
  }
}
