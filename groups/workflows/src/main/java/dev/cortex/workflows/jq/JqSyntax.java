package dev.cortex.workflows.jq;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.thisptr.jackson.jq.JsonQuery;
import net.thisptr.jackson.jq.Versions;
import net.thisptr.jackson.jq.exception.JsonQueryException;

/**
 * Parses jq expressions with jackson-jq (Jackson 2 based; values cross that boundary as JSON text,
 * never as Jackson 2 trees). Only parsing here: evaluation belongs to the engine.
 */
public final class JqSyntax {
  private static final Pattern ENCOUNTERED =
      Pattern.compile("Encountered (.*) at line \\d+, column (\\d+)");

  private JqSyntax() {}

  /** Why {@code expression} does not parse; empty when it does. */
  public static Optional<String> error(String expression) {
    if (expression.isBlank()) {
      return Optional.of("empty jq expression");
    }
    try {
      JsonQuery.compile(expression, Versions.JQ_1_6);
      return Optional.empty();
    } catch (JsonQueryException | RuntimeException e) {
      return Optional.of("bad jq expression '" + expression + "': " + reason(e));
    }
  }

  private static String reason(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    String message = root.getMessage() == null ? "" : root.getMessage();
    Matcher matcher = ENCOUNTERED.matcher(message);
    if (matcher.find()) {
      return matcher.group(1).contains("<EOF>")
          ? "unexpected end of expression"
          : "syntax error at column " + matcher.group(2);
    }
    return message.lines().findFirst().orElse(root.getClass().getSimpleName()).strip();
  }
}
