package dev.cortex.mcp.tool;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The bound on every tool's answer: {@value #MAX_CHARS} characters of JSON. A larger answer is
 * saved whole under {@code $CORTEX_HOME/tmp/tool-results/} and the caller gets, in its place,
 * {@code {"spilled": {saved_to, total_chars, preview, note}}}: the file, the answer's length and
 * its first 2 KB. Every tool's output schema admits that shape beside its own, so a spilled answer
 * is still a valid result; its text copy is as small.
 */
public final class AnswerBound {
  /** The most characters of JSON a tool answers with. */
  public static final int MAX_CHARS = 100_000;

  private AnswerBound() {}

  /** Built once: every tool's output schema shares it. */
  private static final Map<String, Object> SPILLED = spilledSchema();

  /** The schema of a spilled answer: one description for its four fields. */
  private static Map<String, Object> spilledSchema() {
    return Schema.object()
        .description(
            "Over "
                + MAX_CHARS
                + " characters: the answer is in the file saved_to (preview: its first 2 KB).")
        .required(
            "spilled",
            Schema.object()
                .required("saved_to", Schema.string(null))
                .required("total_chars", Schema.integer(null))
                .required("preview", Schema.string(null))
                .required("note", Schema.string(null))
                .build())
        .build();
  }

  /**
   * {@code schema} (an object schema) or a spilled answer. Applied once: a schema that already
   * admits a spilled answer is returned as it is.
   */
  static Map<String, Object> admitSpilled(Map<String, Object> schema) {
    if (schema.get("anyOf") instanceof List<?> branches
        && branches.size() == 2
        && SPILLED.equals(branches.get(1))) {
      return schema;
    }
    Map<String, Object> wrapped = new LinkedHashMap<>();
    wrapped.put("type", "object");
    wrapped.put("anyOf", List.of(schema, SPILLED));
    return java.util.Collections.unmodifiableMap(wrapped);
  }

  /** Saves {@code json}, an answer of {@code tool} over the bound; returns the answer instead. */
  static String spill(String tool, String json, CortexHome home, Clock clock) {
    Spill.SpillableText saved = new Spill(home, clock).save(tool, json, ".json");
    Map<String, Object> spilled = new LinkedHashMap<>();
    spilled.put("saved_to", saved.savedTo());
    spilled.put("total_chars", saved.totalChars());
    spilled.put("preview", saved.text());
    spilled.put(
        "note",
        "The answer of "
            + tool
            + " was "
            + saved.totalChars()
            + " characters, over the limit of "
            + MAX_CHARS
            + "; the whole of it is in "
            + saved.savedTo()
            + " (owner-only). Read the file, or ask for less.");
    return Json.write(Map.of("spilled", spilled));
  }
}
