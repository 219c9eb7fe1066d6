package dev.cortex.base;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Takes secrets out of text before it is kept or shown (a session's transcript, say), replacing
 * each with {@value #REDACTED}. A secret is recognised three ways:
 *
 * <ul>
 *   <li>by its form: a pattern secrets of a kind are minted in (a waitpoint's {@code wps_…});
 *   <li>by its value: one this process knows (the webhook token);
 *   <li>by its mark: in JSON (also JSON text inside a JSON string, as a tool's answer inside a
 *       transcript entry), the string value of a member whose name marks it secret ({@code secret},
 *       {@code token}, {@code password}, {@code credential}, {@code api_key}, or a name ending in
 *       {@code _secret}, {@code _token}, {@code _password}, {@code _credential}, in any case). A
 *       marked value of at least {@value #MIN_MARKED} characters is taken out wherever it appears
 *       in the text, e.g. also inside a command line that quotes it.
 * </ul>
 *
 * Values are matched as they are and as JSON escapes them, once and twice.
 */
public final class Redactor {
  /** What stands in a secret's place. */
  public static final String REDACTED = "[redacted]";

  /** Shorter marked values are not taken for secrets (they would match ordinary text). */
  public static final int MIN_MARKED = 8;

  private static final Set<String> MARKS =
      Set.of("secret", "token", "password", "credential", "api_key", "apikey");
  private static final List<String> MARK_ENDINGS =
      List.of("_secret", "_token", "_password", "_credential", "-secret", "-token");

  /** Nested JSON text is looked into this deep at most. */
  private static final int MAX_DEPTH = 8;

  private final List<Pattern> forms;
  private final List<String> values;

  private Redactor(List<Pattern> forms, List<String> values) {
    this.forms = List.copyOf(forms);
    this.values = List.copyOf(values);
  }

  /** A redactor that knows secrets by their mark alone. */
  public static Redactor marked() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code text} with every secret it holds replaced by {@value #REDACTED}; null stays null. */
  public String redact(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    Set<String> found = new LinkedHashSet<>(values);
    marked(text, found, 0);
    // Longest first: a secret that holds another is taken out whole.
    List<String> secrets = new ArrayList<>(found);
    secrets.sort(Comparator.comparingInt(String::length).reversed());
    String redacted = text;
    for (String secret : secrets) {
      for (String form : spellings(secret)) {
        redacted = redacted.replace(form, REDACTED);
      }
    }
    for (Pattern form : forms) {
      redacted = form.matcher(redacted).replaceAll(Matcher.quoteReplacement(REDACTED));
    }
    return redacted;
  }

  /** The secret as it is, and as JSON escapes it once and twice. */
  private static Set<String> spellings(String secret) {
    Set<String> spellings = new LinkedHashSet<>();
    spellings.add(secret);
    String once = escaped(secret);
    spellings.add(once);
    spellings.add(escaped(once));
    return spellings;
  }

  private static String escaped(String text) {
    String quoted = Json.write(text);
    return quoted.substring(1, quoted.length() - 1);
  }

  /** Adds the marked values of {@code text}, when it is JSON, to {@code secrets}. */
  private static void marked(String text, Set<String> secrets, int depth) {
    String trimmed = text.strip();
    if (depth > MAX_DEPTH
        || trimmed.isEmpty()
        || (trimmed.charAt(0) != '{' && trimmed.charAt(0) != '[')) {
      return;
    }
    JsonNode tree;
    try {
      tree = Json.mapper().readTree(trimmed);
    } catch (RuntimeException e) {
      return;
    }
    walk(tree, secrets, depth);
  }

  private static void walk(JsonNode node, Set<String> secrets, int depth) {
    if (node == null) {
      return;
    }
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        JsonNode value = member.getValue();
        if (value.isString() && marks(member.getKey()) && value.asString().length() >= MIN_MARKED) {
          secrets.add(value.asString());
        } else {
          walk(value, secrets, depth);
        }
      }
    } else if (node.isArray()) {
      for (JsonNode element : node) {
        walk(element, secrets, depth);
      }
    } else if (node.isString()) {
      marked(node.asString(), secrets, depth + 1);
    }
  }

  private static boolean marks(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return MARKS.contains(lower) || MARK_ENDINGS.stream().anyMatch(lower::endsWith);
  }

  /** Builder of a {@link Redactor}. */
  public static final class Builder {
    private final List<Pattern> forms = new ArrayList<>();
    private final List<String> values = new ArrayList<>();

    private Builder() {}

    /** Secrets of this form (e.g. {@code wps_[A-Za-z0-9_-]{43}}) are taken out. */
    public Builder form(Pattern form) {
      forms.add(Objects.requireNonNull(form, "form"));
      return this;
    }

    /**
     * This value is a secret wherever it appears; a null, blank or shorter value than {@value
     * #MIN_MARKED} characters is ignored (it would match ordinary text).
     */
    public Builder value(String secret) {
      if (secret != null && secret.strip().length() >= MIN_MARKED) {
        values.add(secret.strip());
      }
      return this;
    }

    public Redactor build() {
      return new Redactor(forms, values);
    }
  }
}
