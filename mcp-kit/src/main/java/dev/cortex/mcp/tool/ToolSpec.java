package dev.cortex.mcp.tool;

import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One tool of a capability group: its name, documentation, schemas, hints, spill limit and the
 * handler that does the work. The same spec serves MCP and {@code cortex tools call}.
 *
 * @param outputSchema the schema of a successful answer; it admits a spilled answer too (see {@link
 *     AnswerBound}), and the parts it repeats are written once (see {@link SharedDefinitions})
 * @param spillLimit characters of text output above which the output is spilled to disk, or 0
 * @param blocking whether the tool may block for long (a process, a person, the network): such
 *     tools run on a worker thread so the server keeps reading requests meanwhile
 * @param warmUpArguments arguments with which the server may call this tool once in the background
 *     at start-up, so that the first real call is quick; null for tools that must not be called
 *     unasked (anything that writes, blocks or reaches out)
 */
public record ToolSpec(
    String name,
    String title,
    String description,
    Map<String, Object> inputSchema,
    Map<String, Object> outputSchema,
    ToolHints hints,
    int spillLimit,
    boolean blocking,
    Map<String, Object> warmUpArguments,
    ToolHandler handler) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");

  public ToolSpec {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("tool name must match " + NAME + ": " + name);
    }
    Objects.requireNonNull(title, "title of " + name);
    Objects.requireNonNull(description, "description of " + name);
    Objects.requireNonNull(inputSchema, "inputSchema of " + name);
    Objects.requireNonNull(outputSchema, "outputSchema of " + name);
    Objects.requireNonNull(hints, "hints of " + name);
    Objects.requireNonNull(handler, "handler of " + name);
    if (!"object".equals(inputSchema.get("type")) || !"object".equals(outputSchema.get("type"))) {
      throw new IllegalArgumentException("schemas of " + name + " must be objects");
    }
    outputSchema = SharedDefinitions.share(AnswerBound.admitSpilled(outputSchema));
    if (warmUpArguments != null && (!hints.readOnly() || hints.openWorld() || blocking)) {
      throw new IllegalArgumentException(
          "only read-only, closed-world, quick tools may be warmed up: " + name);
    }
    if (spillLimit < 0) {
      throw new IllegalArgumentException("spillLimit of " + name + " must not be negative");
    }
  }

  /** This tool with another description (e.g. with a catalogue appended). */
  public ToolSpec withDescription(String text) {
    return new ToolSpec(
        name,
        title,
        text,
        inputSchema,
        outputSchema,
        hints,
        spillLimit,
        blocking,
        warmUpArguments,
        handler);
  }

  /** Starts a builder with the required parts first. */
  public static Builder builder(String name, ToolHandler handler) {
    return new Builder(name, handler);
  }

  /** Builder of a {@link ToolSpec}. */
  public static final class Builder {
    private final String name;
    private final ToolHandler handler;
    private String title;
    private String description;
    private Map<String, Object> inputSchema = Schema.object().build();
    private Map<String, Object> outputSchema;
    private ToolHints hints;
    private int spillLimit;
    private boolean blocking;
    private Map<String, Object> warmUpArguments;

    private Builder(String name, ToolHandler handler) {
      this.name = name;
      this.handler = handler;
    }

    public Builder title(String value) {
      this.title = value;
      return this;
    }

    public Builder description(String value) {
      this.description = value;
      return this;
    }

    public Builder input(Map<String, Object> schema) {
      this.inputSchema = schema;
      return this;
    }

    public Builder output(Map<String, Object> schema) {
      this.outputSchema = schema;
      return this;
    }

    public Builder hints(ToolHints value) {
      this.hints = value;
      return this;
    }

    public Builder spillLimit(int characters) {
      this.spillLimit = characters;
      return this;
    }

    /** Marks the tool as one that may block for long; see {@link ToolSpec#blocking()}. */
    public Builder blocking() {
      this.blocking = true;
      return this;
    }

    /**
     * Lets the server call this tool with {@code arguments} once at start-up, in the background.
     */
    public Builder warmUpWith(Map<String, Object> arguments) {
      this.warmUpArguments = Map.copyOf(arguments);
      return this;
    }

    public ToolSpec build() {
      return new ToolSpec(
          name,
          title,
          description,
          inputSchema,
          outputSchema,
          hints,
          spillLimit,
          blocking,
          warmUpArguments,
          handler);
    }
  }
}
