package dev.cortex.mcp.tool;

import java.util.Objects;
import java.util.function.Supplier;

/** A static text resource whose content is produced on request. */
public record ResourceSpec(
    String uri, String name, String description, String mimeType, Supplier<String> content) {
  public ResourceSpec {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(name, "name of " + uri);
    Objects.requireNonNull(description, "description of " + uri);
    Objects.requireNonNull(mimeType, "mimeType of " + uri);
    Objects.requireNonNull(content, "content of " + uri);
  }
}
