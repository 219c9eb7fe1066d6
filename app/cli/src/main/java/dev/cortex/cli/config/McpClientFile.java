package dev.cortex.cli.config;

import java.util.List;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.json.JsonReadFeature;
import tools.jackson.core.util.DefaultIndenter;
import tools.jackson.core.util.DefaultPrettyPrinter;
import tools.jackson.core.util.Separators;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.cfg.JsonNodeFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The text of one MCP client configuration file with the {@code cortex} server entry merged in or
 * taken out, by an edit of that entry alone: everything else in the file (other servers, other
 * keys, their order, comments where the client reads JSONC, the file's own indentation) stays as it
 * was, and an existing entry keeps its place and its own extra keys and {@code env}. A new or
 * changed entry is written indented by two spaces, as the clients write it.
 */
final class McpClientFile {
  private McpClientFile() {}

  /** The server name the entry is kept under. */
  static final String SERVER = "cortex";

  /** What a merge or a removal did to the file. */
  enum Change {
    ADDED,
    UPDATED,
    UNCHANGED,
    REMOVED,
    ABSENT;

    boolean rewrites() {
      return this == ADDED || this == UPDATED || this == REMOVED;
    }
  }

  /** The change and the file's new text (the old text when nothing changed). */
  record Result(Change change, String text) {}

  /** A file that cannot be rewritten without losing or misreading what it holds. */
  static final class Unmergeable extends Exception {
    private static final long serialVersionUID = 1L;

    Unmergeable(String message) {
      super(message);
    }
  }

  private static final JsonMapper STRICT =
      JsonMapper.builder()
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .build();
  private static final JsonMapper WITH_COMMENTS =
      STRICT.rebuild().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();

  /** JSON with comments and trailing commas, as VS Code reads its settings files. */
  private static final JsonMapper JSONC =
      WITH_COMMENTS.rebuild().enable(JsonReadFeature.ALLOW_TRAILING_COMMA).build();

  private static final DefaultPrettyPrinter PRINTER =
      new DefaultPrettyPrinter(
              Separators.createDefaultInstance()
                  .withObjectNameValueSpacing(Separators.Spacing.AFTER)
                  .withObjectEmptySeparator("")
                  .withArrayEmptySeparator(""))
          .withObjectIndenter(new DefaultIndenter("  ", "\n"))
          .withArrayIndenter(new DefaultIndenter("  ", "\n"));

  /**
   * The stdio entry that starts {@code command} in {@code client}'s format, with {@code env} (the
   * variables its server needs; an {@code env} object always for the clients that write one).
   */
  static ObjectNode entry(McpClient client, List<String> command, Map<String, String> env) {
    ObjectNode entry = STRICT.createObjectNode();
    if (client.typed()) {
      entry.put("type", "stdio");
    }
    entry.put("command", command.get(0));
    ArrayNode args = entry.putArray("args");
    command.subList(1, command.size()).forEach(args::add);
    if (client.withEnv() || !env.isEmpty()) {
      ObjectNode variables = entry.putObject("env");
      env.forEach(variables::put);
    }
    return entry;
  }

  /** A file holding only the entry: what {@code --print} shows. */
  static String alone(McpClient client, ObjectNode entry) {
    ObjectNode root = STRICT.createObjectNode();
    root.putObject(client.serversKey()).set(SERVER, entry);
    return render(root);
  }

  /**
   * Merges {@code entry} into {@code text} (null: no file yet). An existing {@code cortex} entry
   * keeps its place and its other keys; its type, command and args are replaced, and its {@code
   * env} keeps its variables, with {@code entry}'s (the Cortex home's) set over them.
   */
  static Result add(McpClient client, String text, ObjectNode entry) throws Unmergeable {
    if (text == null || text.isBlank()) {
      ObjectNode root = STRICT.createObjectNode();
      root.putObject(client.serversKey()).set(SERVER, entry);
      return new Result(Change.ADDED, render(root));
    }
    ObjectNode root = parse(client, text);
    JsonNode servers = servers(client, root);
    JsonSpans spans = JsonSpans.of(text);
    JsonSpans.Obj top = spans.root();
    if (servers == null) {
      ObjectNode value = STRICT.createObjectNode();
      value.set(SERVER, entry);
      return new Result(
          Change.ADDED, spans.set(top, client.serversKey(), indent -> indented(value, indent)));
    }
    JsonSpans.Obj inFile = spans.objectAt(top.member(client.serversKey()).valueStart());
    JsonNode existing = servers.get(SERVER);
    ObjectNode merged = entry;
    if (existing instanceof ObjectNode old) {
      merged = merge(old, entry);
      if (old.equals(merged)) {
        return new Result(Change.UNCHANGED, text);
      }
    }
    ObjectNode written = merged;
    return new Result(
        existing == null ? Change.ADDED : Change.UPDATED,
        spans.set(inFile, SERVER, indent -> indented(written, indent)));
  }

  /**
   * The new entry's keys first, then the old entry's others; the old {@code env}'s variables are
   * kept, the new entry's set over them.
   */
  private static ObjectNode merge(ObjectNode old, ObjectNode entry) {
    ObjectNode merged = STRICT.createObjectNode();
    entry.properties().forEach(p -> merged.set(p.getKey(), p.getValue()));
    if (old.get("env") instanceof ObjectNode oldEnv) {
      ObjectNode env = oldEnv.deepCopy();
      if (entry.get("env") instanceof ObjectNode newEnv) {
        env.setAll(newEnv);
      }
      merged.set("env", env);
    }
    old.properties().stream()
        .filter(p -> !merged.has(p.getKey()))
        .forEach(p -> merged.set(p.getKey(), p.getValue()));
    return merged;
  }

  /** Takes the {@code cortex} entry out of {@code text} (null: no file). */
  static Result remove(McpClient client, String text) throws Unmergeable {
    if (text == null || text.isBlank()) {
      return new Result(Change.ABSENT, text);
    }
    ObjectNode root = parse(client, text);
    JsonNode servers = servers(client, root);
    if (servers == null || !servers.has(SERVER)) {
      return new Result(Change.ABSENT, text);
    }
    JsonSpans spans = JsonSpans.of(text);
    JsonSpans.Obj inFile = spans.objectAt(spans.root().member(client.serversKey()).valueStart());
    return new Result(Change.REMOVED, spans.remove(inFile, SERVER));
  }

  private static ObjectNode parse(McpClient client, String text) throws Unmergeable {
    JsonNode root;
    try {
      root = (client.jsonc() ? JSONC : STRICT).readTree(text);
    } catch (JacksonException e) {
      if (!client.jsonc()) {
        try {
          WITH_COMMENTS.readTree(text);
          throw new Unmergeable(
              "has comments, which "
                  + client.title()
                  + " does not allow in this file: take them out, or add the entry by hand"
                  + " (--print shows it)");
        } catch (JacksonException stillBad) {
          // not JSON with comments either: say where it breaks
        }
      }
      throw new Unmergeable(
          "is not valid "
              + (client.jsonc() ? "JSON with comments" : "JSON")
              + " (line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr()
              + "): fix or move it, then run this again");
    }
    if (!(root instanceof ObjectNode object)) {
      throw new Unmergeable("does not hold a JSON object");
    }
    return object;
  }

  /** The servers object of {@code root}, or null when there is none (absent or JSON null). */
  private static JsonNode servers(McpClient client, ObjectNode root) throws Unmergeable {
    JsonNode servers = root.get(client.serversKey());
    if (servers == null || servers.isNull()) {
      return null;
    }
    if (!servers.isObject()) {
      throw new Unmergeable("has a \"" + client.serversKey() + "\" that is not an object");
    }
    return servers;
  }

  /** {@code value} rendered for a member whose key line starts with {@code indent}. */
  private static String indented(JsonNode value, String indent) {
    return render(value).stripTrailing().replace("\n", "\n" + indent);
  }

  /** The text of a JSON string literal, quotes and escapes included. */
  static String decodeString(String literal) {
    return STRICT.readValue(literal, String.class);
  }

  /** The entry with {@code name} first: the argument of {@code code --add-mcp}. */
  static ObjectNode named(ObjectNode entry) {
    ObjectNode named = STRICT.createObjectNode();
    named.put("name", SERVER);
    named.setAll(entry);
    return named;
  }

  /** One line of JSON. */
  static String compact(JsonNode node) {
    return STRICT.writeValueAsString(node);
  }

  static String render(JsonNode root) {
    return STRICT.writer().with(PRINTER).writeValueAsString(root) + "\n";
  }
}
