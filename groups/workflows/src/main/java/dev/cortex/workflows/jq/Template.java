package dev.cortex.workflows.jq;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The templating syntax of {@code with} values: a jq expression is written {@code ${{ expr }}}
 * inside a string. A string that is exactly one template (surrounding blanks aside) evaluates to
 * the expression's JSON value, whatever its type; a string with text around templates is
 * interpolated, each result inserted as text (strings without quotes, other values as JSON). Any
 * other value is a literal. The expressions run over {@code {params, steps}}.
 */
public final class Template {
  /** A template: {@code ${{ expr }}}, the expression in group 1. */
  public static final Pattern PATTERN = Pattern.compile("\\$\\{\\{(.*?)}}", Pattern.DOTALL);

  private Template() {}

  /** The jq expressions in {@code text}, trimmed, in order. */
  public static List<String> expressions(String text) {
    List<String> found = new ArrayList<>();
    Matcher matcher = PATTERN.matcher(text);
    while (matcher.find()) {
      found.add(matcher.group(1).trim());
    }
    return found;
  }

  /** The expression when {@code text} is exactly one template, its value keeping its JSON type. */
  public static Optional<String> whole(String text) {
    String stripped = text.strip();
    Matcher matcher = PATTERN.matcher(stripped);
    boolean whole = matcher.find() && matcher.start() == 0 && matcher.end() == stripped.length();
    return whole ? Optional.of(matcher.group(1).trim()) : Optional.empty();
  }
}
