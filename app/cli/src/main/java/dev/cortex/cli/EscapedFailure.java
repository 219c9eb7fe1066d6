package dev.cortex.cli;

import dev.cortex.base.StartupException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.DateTimeException;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;

/**
 * A failure that escaped a command, rendered at the edge as one sentence on standard error and a
 * stable exit code: a value or setting that does not hold is a usage error ({@link
 * CortexCommand#USAGE}), anything else a failure ({@link CortexCommand#FAILED}). Never a stack
 * trace or a Java class name: a message that is empty, spans lines or names a class is replaced by
 * a plain sentence.
 */
final class EscapedFailure {
  /**
   * A qualified name of a class of the program or of the libraries it runs on, e.g. {@code
   * java.lang.Integer} or {@code dev.cortex.base.Home$Kind}. (A name from the person's own files,
   * such as a test class in a report, is theirs to see.)
   */
  private static final Pattern JAVA_NAME =
      Pattern.compile(
          "\\b(?:java|javax|jdk|sun|com\\.sun|dev\\.cortex|tools\\.jackson|com\\.fasterxml"
              + "|io\\.modelcontextprotocol|org\\.eclipse|org\\.sqlite|org\\.slf4j|picocli"
              + "|io\\.temporal|reactor)\\.(?:[a-z][a-z0-9_]*\\.)*[A-Z][A-Za-z0-9_$]*");

  private static final int MAX_SENTENCE = 500;

  private EscapedFailure() {}

  /**
   * Prints the sentence of {@code failure}, which escaped {@code command} (e.g. {@code cortex tools
   * call}), and returns the exit code.
   */
  static int render(Io io, String command, Throwable failure) {
    Throwable cause = unwrapped(failure);
    if (cause instanceof StartupException
        || cause instanceof IllegalArgumentException
        || cause instanceof DateTimeException) {
      io.err()
          .println(
              "cortex: "
                  + sentence(
                      cause.getMessage(),
                      "a value given to '"
                          + command
                          + "' is not valid; see '"
                          + command
                          + " --help'."));
      return CortexCommand.USAGE;
    }
    if (cause instanceof UncheckedIOException unchecked) {
      String problem = sentence(unchecked.getCause().getMessage(), null);
      io.err()
          .println(
              "cortex: "
                  + sentence(unchecked.getMessage(), "a file could not be read or written")
                  + (problem == null ? "" : ": " + problem));
      return CortexCommand.FAILED;
    }
    if (cause instanceof IOException) {
      io.err()
          .println(
              "cortex: a file or connection failed"
                  + Optional.ofNullable(sentence(cause.getMessage(), null))
                      .map(problem -> ": " + problem)
                      .orElse("."));
      return CortexCommand.FAILED;
    }
    String unexpected = "'" + command + "' stopped on an unexpected fault.";
    io.err()
        .println(
            "cortex: "
                + (cause instanceof IllegalStateException
                    ? sentence(cause.getMessage(), unexpected)
                    : unexpected));
    return CortexCommand.FAILED;
  }

  /** The failure inside the wrappers of concurrency, which say nothing of their own. */
  private static Throwable unwrapped(Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException)
        && cause.getCause() != null) {
      cause = cause.getCause();
    }
    return cause;
  }

  /** {@code message} when it is one plain line, else {@code otherwise}. */
  static String sentence(String message, String otherwise) {
    if (message == null
        || message.isBlank()
        || message.length() > MAX_SENTENCE
        || message.contains("\n")
        || message.contains("\r")
        || JAVA_NAME.matcher(message).find()) {
      return otherwise;
    }
    return message.strip();
  }
}
