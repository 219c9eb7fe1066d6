package dev.cortex.mcp.tool;

import java.util.Objects;
import java.util.function.Supplier;

/** A prompt without arguments whose body is produced on request. */
public record PromptSpec(String name, String description, Supplier<String> body) {
  public PromptSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description of " + name);
    Objects.requireNonNull(body, "body of " + name);
  }
}
