package dev.cortex.cli.config;

import java.util.List;
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
 * taken out. Everything else in the file (other servers, other keys, their order, an entry's own
 * extra keys such as {@code env}) is kept; the file is written back indented by two spaces, as the
 * clients write it.
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
          .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES)
          .build();
  private static final JsonMapper WITH_COMMENTS =
      STRICT.rebuild().enable(JsonReadFeature.ALLOW_JAVA_COMMENTS).build();
  private static final DefaultPrettyPrinter PRINTER =
      new DefaultPrettyPrinter(
              Separators.createDefaultInstance()
                  .withObjectNameValueSpacing(Separators.Spacing.AFTER)
                  .withObjectEmptySeparator("")
                  .withArrayEmptySeparator(""))
          .withObjectIndenter(new DefaultIndenter("  ", "\n"))
          .withArrayIndenter(new DefaultIndenter("  ", "\n"));

  /** The stdio entry that starts {@code command} in {@code client}'s format. */
  static ObjectNode entry(McpClient client, List<String> command) {
    ObjectNode entry = STRICT.createObjectNode();
    if (client.typed()) {
      entry.put("type", "stdio");
    }
    entry.put("command", command.get(0));
    ArrayNode args = entry.putArray("args");
    command.subList(1, command.size()).forEach(args::add);
    if (client.withEnv()) {
      entry.putObject("env");
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
   * keeps its place and its other keys; its type, command and args are replaced.
   */
  static Result add(McpClient client, String text, ObjectNode entry) throws Unmergeable {
    ObjectNode root = parse(text);
    ObjectNode servers = servers(client, root, true);
    JsonNode existing = servers.get(SERVER);
    ObjectNode merged = entry;
    if (existing instanceof ObjectNode old) {
      merged = merge(old, entry);
      if (old.equals(merged)) {
        return new Result(Change.UNCHANGED, text);
      }
    }
    servers.set(SERVER, merged);
    return new Result(existing == null ? Change.ADDED : Change.UPDATED, render(root));
  }

  /** The new entry's keys first (an existing {@code env} kept), then the old entry's others. */
  private static ObjectNode merge(ObjectNode old, ObjectNode entry) {
    ObjectNode merged = STRICT.createObjectNode();
    entry.properties().forEach(p -> merged.set(p.getKey(), p.getValue()));
    old.properties().stream()
        .filter(p -> p.getKey().equals("env") || !merged.has(p.getKey()))
        .forEach(p -> merged.set(p.getKey(), p.getValue()));
    return merged;
  }

  /** Takes the {@code cortex} entry out of {@code text} (null: no file). */
  static Result remove(McpClient client, String text) throws Unmergeable {
    if (text == null) {
      return new Result(Change.ABSENT, null);
    }
    ObjectNode root = parse(text);
    ObjectNode servers = servers(client, root, false);
    if (servers == null || !servers.has(SERVER)) {
      return new Result(Change.ABSENT, text);
    }
    servers.remove(SERVER);
    return new Result(Change.REMOVED, render(root));
  }

  private static ObjectNode parse(String text) throws Unmergeable {
    if (text == null || text.isBlank()) {
      return STRICT.createObjectNode();
    }
    JsonNode root;
    try {
      root = STRICT.readTree(text);
    } catch (JacksonException e) {
      try {
        WITH_COMMENTS.readTree(text);
      } catch (JacksonException stillBad) {
        throw new Unmergeable(
            "is not valid JSON (line "
                + e.getLocation().getLineNr()
                + ", column "
                + e.getLocation().getColumnNr()
                + "): fix or move it, then run this again");
      }
      throw new Unmergeable(
          "has comments, which rewriting it would lose: add the entry by hand (--print shows it)");
    }
    if (!(root instanceof ObjectNode object)) {
      throw new Unmergeable("does not hold a JSON object");
    }
    return object;
  }

  private static ObjectNode servers(McpClient client, ObjectNode root, boolean create)
      throws Unmergeable {
    JsonNode servers = root.get(client.serversKey());
    if (servers == null || servers.isNull()) {
      return create ? root.putObject(client.serversKey()) : null;
    }
    if (!(servers instanceof ObjectNode object)) {
      throw new Unmergeable("has a \"" + client.serversKey() + "\" that is not an object");
    }
    return object;
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
