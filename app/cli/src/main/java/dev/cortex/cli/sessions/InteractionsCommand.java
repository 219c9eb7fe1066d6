package dev.cortex.cli.sessions;

import static dev.cortex.cli.sessions.SessionVerbs.attempt;
import static dev.cortex.cli.sessions.SessionVerbs.client;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Table;
import dev.cortex.protocol.session.Interactions;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cortex interactions} and {@code cortex answer}: the questions and plan approvals that
 * sessions put before a person, through the agent server's session API.
 */
@Command(
    name = "interactions",
    mixinStandardHelpOptions = true,
    description = "Questions and plans of sessions that wait for a person: list, show.")
public final class InteractionsCommand implements Callable<Integer> {
  private final Io io;

  public InteractionsCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    io.err().println("cortex interactions: say list or show.");
    return CortexCommand.USAGE;
  }

  /** {@code cortex interactions list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the open questions and plans, oldest first.")
  public static final class ListInteractions implements Callable<Integer> {
    private final Io io;

    @Option(names = "--session", paramLabel = "SESSION", description = "Of this session only.")
    String session;

    @Option(names = "--all", description = "Also those answered, expired or withdrawn.")
    boolean all;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public ListInteractions(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      SessionClient client = client(io);
      return attempt(
          io,
          () -> {
            List<Interactions.View> found =
                client.interactions(new Interactions.Listing(session, all ? true : null));
            if (json) {
              io.out().println(Json.writePretty(found));
              return CortexCommand.OK;
            }
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("ID", "SESSION", "KIND", "STATE", "BLOCKING", "EXPIRES", "ABOUT"));
            for (Interactions.View v : found) {
              rows.add(
                  List.of(
                      v.id(),
                      v.sessionId(),
                      v.kind(),
                      v.state(),
                      v.blocking() ? "yes" : "no",
                      v.expiresAt(),
                      about(v)));
            }
            Table.print(io.out(), rows);
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex interactions show ID}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Show a question or plan, and how to answer it.")
  public static final class Show implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "REQUEST_ID", description = "e.g. ia-3fa2c1d0e4b5.")
    String id;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public Show(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      SessionClient client = client(io);
      return attempt(
          io,
          () -> {
            Interactions.View view = client.interaction(id);
            if (json) {
              io.out().println(Json.writePretty(view));
            } else {
              card(io.out(), view);
            }
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex answer REQUEST_ID …}. */
  @Command(
      name = "answer",
      mixinStandardHelpOptions = true,
      description = {
        "Answer a session's question, or decide on its plan. The first answer counts.",
        "A question takes one ANSWER per question, in order: an option's label or number (several"
            + " separated by commas when it allows several), or your own words. A plan takes"
            + " --approve, or --reject with --feedback."
      })
  public static final class Answer implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "REQUEST_ID", description = "e.g. ia-3fa2c1d0e4b5.")
    String id;

    @Parameters(index = "1..*", arity = "0..*", paramLabel = "ANSWER", description = "Answers.")
    List<String> answers = new ArrayList<>();

    @Option(names = "--approve", description = "Approve the plan.")
    boolean approve;

    @Option(names = "--reject", description = "Reject the plan (with --feedback).")
    boolean reject;

    @Option(names = "--feedback", paramLabel = "TEXT", description = "What to change.")
    String feedback;

    @Option(names = "--json", description = "Print the interaction as JSON.")
    boolean json;

    public Answer(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      SessionClient client = client(io);
      return attempt(
          io,
          () -> {
            Interactions.View asked = client.interaction(id);
            Interactions.View answered =
                client.answer(answer(asked, answers, approve, reject, feedback, by(io)));
            if (json) {
              io.out().println(Json.writePretty(answered));
            } else {
              io.out().println("answered " + answered.id());
            }
            return CortexCommand.OK;
          });
    }
  }

  /** Who answers from this terminal: the user's name, else {@code person}. */
  static String by(Io io) {
    String user = io.env("USER");
    if (user == null || user.isBlank()) {
      user = io.env("USERNAME");
    }
    return user == null || user.isBlank() || user.length() > Interactions.MAX_BY
        ? "person"
        : user.strip();
  }

  /** The answer a terminal gives to {@code asked}. */
  static Interactions.Answer answer(
      Interactions.View asked,
      List<String> values,
      boolean approve,
      boolean reject,
      String feedback,
      String by) {
    if (asked.kind().equals(Interactions.PLAN)) {
      if (approve == reject || !values.isEmpty()) {
        throw usage(
            "Request " + asked.id() + " is a plan: say --approve, or --reject --feedback TEXT.");
      }
      return new Interactions.Answer(asked.id(), null, approve, feedback, by, "terminal");
    }
    if (approve || reject || feedback != null) {
      throw usage("Request " + asked.id() + " is a question: give one ANSWER per question.");
    }
    List<Interactions.Question> questions = asked.questions();
    if (values.size() != questions.size()) {
      throw usage(
          "Request "
              + asked.id()
              + " asks "
              + questions.size()
              + " question(s): give "
              + questions.size()
              + " ANSWER(s), in order; got "
              + values.size()
              + ".");
    }
    List<Interactions.QuestionAnswer> answers = new ArrayList<>();
    for (int i = 0; i < questions.size(); i++) {
      answers.add(reply(questions.get(i), values.get(i)));
    }
    return new Interactions.Answer(asked.id(), answers, null, null, by, "terminal");
  }

  /** Option labels (or numbers) when every part names one, else free text. */
  static Interactions.QuestionAnswer reply(Interactions.Question question, String value) {
    List<String> labels = Interactions.labels(question.options());
    List<String> parts = question.multiple() ? List.of(value.split(",")) : List.of(value);
    List<String> selected = new ArrayList<>();
    for (String part : parts) {
      String label = label(labels, part.strip());
      if (label == null) {
        return new Interactions.QuestionAnswer(null, value);
      }
      selected.add(label);
    }
    return new Interactions.QuestionAnswer(selected, null);
  }

  private static String label(List<String> labels, String part) {
    for (String label : labels) {
      if (label.equalsIgnoreCase(part)) {
        return label;
      }
    }
    if (part.matches("[1-9]")) {
      int n = Integer.parseInt(part);
      return n <= labels.size() ? labels.get(n - 1) : null;
    }
    return null;
  }

  /** A short line on what an interaction asks. */
  static String about(Interactions.View v) {
    String text =
        v.kind().equals(Interactions.PLAN)
            ? "plan " + v.plan().file()
            : v.questions().get(0).question()
                + (v.questions().size() > 1 ? " (+" + (v.questions().size() - 1) + ")" : "");
    return text.length() > 60 ? text.substring(0, 59) + "…" : text;
  }

  /** An interaction as a card on a terminal, with the line that answers it. */
  static void card(PrintStream out, Interactions.View v) {
    String level = v.level().equals("info") ? "" : " [" + v.level().toUpperCase(Locale.ROOT) + "]";
    if (v.kind().equals(Interactions.PLAN)) {
      out.println("── plan for approval " + v.id() + level + " (" + v.state() + ") ──");
      out.println("file: " + v.plan().file());
      if (v.plan().summary() != null) {
        out.println("summary: " + v.plan().summary());
      }
      out.println(v.plan().content().stripTrailing());
      out.println("── answer: cortex answer " + v.id() + " --approve | --reject --feedback TEXT");
    } else {
      out.println(
          "── question "
              + v.id()
              + level
              + " ("
              + v.state()
              + (v.blocking() ? "" : ", not blocking")
              + ") ──");
      for (int i = 0; i < v.questions().size(); i++) {
        Interactions.Question q = v.questions().get(i);
        out.println(
            (i + 1) + ". " + (q.header() == null ? "" : "[" + q.header() + "] ") + q.question());
        List<Interactions.Option> options = q.options() == null ? List.of() : q.options();
        for (int o = 0; o < options.size(); o++) {
          Interactions.Option option = options.get(o);
          out.println(
              "   "
                  + (o + 1)
                  + ") "
                  + option.label()
                  + (option.description() == null ? "" : " — " + option.description()));
        }
        if (q.multiple()) {
          out.println("   (several: separate them with commas)");
        }
      }
      out.println(
          "── answer: cortex answer "
              + v.id()
              + " "
              + String.join(" ", java.util.Collections.nCopies(v.questions().size(), "ANSWER")));
    }
    if (v.answer() != null) {
      out.println(
          "answered by " + v.answer().by() + " via " + v.answer().via() + " at " + v.answer().at());
    }
  }

  private static CodedException usage(String message) {
    return new CodedException(ErrorCodes.INVALID_ARGUMENT, message);
  }
}
