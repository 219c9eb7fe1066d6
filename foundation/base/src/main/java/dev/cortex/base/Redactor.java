package dev.cortex.base;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;

/**
 * Takes secrets out of text before it is kept or shown (a session's transcript, say), replacing
 * each with {@value #REDACTED}. A secret is recognised three ways:
 *
 * <ul>
 *   <li>by its form: the forms Cortex mints secrets in ({@link MintedSecrets}), and any the builder
 *       adds;
 *   <li>by its value: one this process knows (the webhook token);
 *   <li>by its mark: in JSON (also JSON text inside a JSON string, as a tool's answer inside a
 *       transcript entry), the string value of a member whose name marks it secret ({@code secret},
 *       {@code token}, {@code password}, {@code credential}, {@code api_key}, or a name ending in
 *       {@code _secret}, {@code _token}, {@code _password}, {@code _credential}, in any case), of
 *       at least {@value #MIN_MARKED} characters. A marked value is taken out wherever it appears,
 *       e.g. also inside a command line that quotes it, unless it is markup in angle or square
 *       brackets (a model's {@code "eos_token": "<|endoftext|>"}), which is taken out only where it
 *       is marked.
 * </ul>
 *
 * JSON is redacted as a tree: inside its string values (its names lose known values and forms
 * only), and written again, so that what is taken out never touches its syntax; values escaped in
 * any way are matched as the strings they are. Text that is not JSON is redacted as it is, known
 * values also as JSON escapes them, once and twice. One pass over the text finds every secret,
 * however many.
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

  /** A marked value has a letter or a digit (blanks or dashes alone are no secret). */
  private static final Pattern WORDLIKE = Pattern.compile("[\\p{L}\\p{N}]");

  /** A marked value of this form is markup, taken out only where it is marked. */
  private static final Pattern MARKUP = Pattern.compile("<[^<>]*>|\\[[^\\[\\]]*]");

  /** Nested JSON text is looked into this deep at most. */
  private static final int MAX_DEPTH = 8;

  /** Reads JSON whole, numbers as they are written (a float is no double rounded). */
  private static final JsonMapper TREES =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .build();

  private final List<Pattern> forms;
  private final List<String> values;

  /** The known values, as they are and as JSON escapes them: what a member's name loses. */
  private final Literals known;

  /** How many known values there are, each once. */
  private final int distinctValues;

  private Redactor(List<Pattern> forms, List<String> values) {
    this.forms = List.copyOf(forms);
    this.values = List.copyOf(values);
    Set<String> distinct = new LinkedHashSet<>(this.values);
    this.known = Literals.of(spellings(distinct));
    this.distinctValues = distinct.size();
  }

  /** A redactor that knows secrets by their mark and by the forms Cortex mints them in. */
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
    JsonNode tree = whole(text);
    if (tree != null) {
      collect(tree, found, 0, true);
    } else {
      loose(text, found, 0);
    }
    // Most text holds no marked value: the known values' automaton, built once, serves it.
    Literals literals = found.size() == distinctValues ? known : Literals.of(spellings(found));
    Pass pass = new Pass(literals, known, forms);
    if (tree == null) {
      return pass.text(text);
    }
    JsonNode redacted = rewrite(tree, pass, 0);
    return redacted == tree ? text : written(redacted, text);
  }

  /** Each secret as it is, and as JSON escapes it once and twice. */
  private static List<String> spellings(Set<String> secrets) {
    List<String> spellings = new ArrayList<>();
    for (String secret : secrets) {
      spellings.add(secret);
      String once = escaped(secret);
      spellings.add(once);
      spellings.add(escaped(once));
    }
    return spellings;
  }

  private static String escaped(String text) {
    String quoted = Json.write(text);
    return quoted.substring(1, quoted.length() - 1);
  }

  /**
   * Adds to {@code secrets} the marked values under {@code node} that are taken out wherever they
   * appear: all but markup, and every one when {@code inPlace} is false (the text they came from is
   * redacted as text, not as a tree).
   */
  private static void collect(JsonNode node, Set<String> secrets, int depth, boolean inPlace) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        JsonNode value = member.getValue();
        if (marked(member.getKey(), value)) {
          if (!inPlace || !MARKUP.matcher(value.asString()).matches()) {
            secrets.add(value.asString());
          }
        } else {
          collect(value, secrets, depth, inPlace);
        }
      }
    } else if (node.isArray()) {
      for (JsonNode element : node) {
        collect(element, secrets, depth, inPlace);
      }
    } else if (node.isString() && depth < MAX_DEPTH && looksLikeJson(node.asString())) {
      JsonNode nested = inPlace ? whole(node.asString()) : null;
      if (nested != null) {
        collect(nested, secrets, depth + 1, true);
      } else {
        loose(node.asString(), secrets, depth + 1);
      }
    }
  }

  /**
   * Adds the marked values of the JSON values {@code text} begins with (JSON lines, or JSON cut
   * short): the text is redacted as text, so every one of them is taken out wherever it appears.
   */
  private static void loose(String text, Set<String> secrets, int depth) {
    if (!looksLikeJson(text)) {
      return;
    }
    try (var values = TREES.readerFor(JsonNode.class).<JsonNode>readValues(text)) {
      while (values.hasNextValue()) {
        collect(values.nextValue(), secrets, depth, false);
      }
    } catch (RuntimeException e) {
      // what was read before the text stops being JSON counts
    }
  }

  /** {@code node} with its secrets taken out; {@code node} itself when it holds none. */
  private static JsonNode rewrite(JsonNode node, Pass pass, int depth) {
    if (node.isObject()) {
      return rewriteObject(node, pass, depth);
    }
    if (node.isArray()) {
      List<JsonNode> elements = new ArrayList<>(node.size());
      boolean changed = false;
      for (JsonNode element : node) {
        JsonNode redacted = rewrite(element, pass, depth);
        changed |= redacted != element;
        elements.add(redacted);
      }
      if (!changed) {
        return node;
      }
      ArrayNode array = TREES.createArrayNode();
      elements.forEach(array::add);
      return array;
    }
    if (node.isString()) {
      String text = node.asString();
      String redacted = rewriteString(text, pass, depth);
      return redacted.equals(text) ? node : StringNode.valueOf(redacted);
    }
    return node;
  }

  private static JsonNode rewriteObject(JsonNode node, Pass pass, int depth) {
    List<Map.Entry<String, JsonNode>> members = new ArrayList<>(node.size());
    boolean changed = false;
    for (Map.Entry<String, JsonNode> member : node.properties()) {
      String name = pass.name(member.getKey());
      JsonNode value = member.getValue();
      JsonNode redacted =
          marked(member.getKey(), value)
              ? StringNode.valueOf(REDACTED)
              : rewrite(value, pass, depth);
      changed |= !name.equals(member.getKey()) || !redacted.equals(value);
      members.add(Map.entry(name, redacted));
    }
    if (!changed) {
      return node;
    }
    ObjectNode object = TREES.createObjectNode();
    members.forEach(member -> object.set(member.getKey(), member.getValue()));
    return object;
  }

  /** A string value redacted: as a tree when it is JSON text, else as text. */
  private static String rewriteString(String text, Pass pass, int depth) {
    if (depth < MAX_DEPTH && looksLikeJson(text)) {
      JsonNode nested = whole(text);
      if (nested != null) {
        JsonNode redacted = rewrite(nested, pass, depth + 1);
        return redacted == nested ? text : written(redacted, text);
      }
    }
    return pass.text(text);
  }

  private static boolean marked(String name, JsonNode value) {
    return value.isString()
        && value.asString().strip().length() >= MIN_MARKED
        && WORDLIKE.matcher(value.asString()).find()
        && marks(name);
  }

  private static boolean marks(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return MARKS.contains(lower) || MARK_ENDINGS.stream().anyMatch(lower::endsWith);
  }

  /** Whether {@code text} begins (after white space) as a JSON object or array does. */
  private static boolean looksLikeJson(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (!Character.isWhitespace(c)) {
        return c == '{' || c == '[';
      }
    }
    return false;
  }

  /** {@code text} as one JSON object or array and nothing more, or null. */
  private static JsonNode whole(String text) {
    if (!looksLikeJson(text)) {
      return null;
    }
    try {
      return TREES.readTree(text);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /** {@code tree} as JSON text, indented when {@code original} was. */
  private static String written(JsonNode tree, String original) {
    return original.indexOf('\n') >= 0
        ? TREES.writerWithDefaultPrettyPrinter().writeValueAsString(tree)
        : TREES.writeValueAsString(tree);
  }

  /**
   * One redaction's secrets: their literals, found in one pass, those of them that are known
   * values, and the forms.
   */
  private record Pass(Literals literals, Literals known, List<Pattern> forms) {
    String text(String text) {
      return forms(literals.replace(text, REDACTED));
    }

    /**
     * A member's name without the known values and the forms (a marked value may be a name, as
     * {@code "secret": "tool_use_id"}, and must not take it out).
     */
    String name(String name) {
      return forms(known.replace(name, REDACTED));
    }

    String forms(String text) {
      String redacted = text;
      for (Pattern form : forms) {
        redacted = form.matcher(redacted).replaceAll(Matcher.quoteReplacement(REDACTED));
      }
      return redacted;
    }
  }

  /** Builder of a {@link Redactor}; it knows the forms of {@link MintedSecrets} from the start. */
  public static final class Builder {
    private final List<Pattern> forms = new ArrayList<>(List.of(MintedSecrets.FORM));
    private final List<String> values = new ArrayList<>();

    private Builder() {}

    /** Secrets of this form (e.g. {@code tok_[A-Za-z0-9]{32}}) are taken out too. */
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
