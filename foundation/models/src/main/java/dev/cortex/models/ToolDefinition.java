package dev.cortex.models;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/** A tool the model may call: its name, what it does, and the JSON Schema of its arguments. */
public record ToolDefinition(String name, String description, JsonNode inputSchema) {
  public ToolDefinition {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(inputSchema, "inputSchema");
  }
}
