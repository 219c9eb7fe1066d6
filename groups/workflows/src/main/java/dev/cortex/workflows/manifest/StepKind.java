package dev.cortex.workflows.manifest;

import java.util.Locale;
import java.util.Optional;

/** The activity a step runs, and the capability the manifest must declare for it. */
public enum StepKind {
  SHELL("shell"),
  HTTP("network"),
  SQL("database"),
  /** Needs {@code mcp:<server>} for the server named in {@code with.server}. */
  MCP(null),
  TRANSFORM(null),
  LLM("network");

  private final String capability;

  StepKind(String capability) {
    this.capability = capability;
  }

  /** The name used in manifests. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The capability a step of this kind needs; for {@code mcp}, {@code mcp:<server>}. Empty for
   * {@code transform}.
   */
  public Optional<String> requiredCapability(String server) {
    if (this == MCP) {
      return Optional.of("mcp:" + server);
    }
    return Optional.ofNullable(capability);
  }

  /** The kind named {@code wireName}, if any. */
  public static Optional<StepKind> fromWireName(String wireName) {
    for (StepKind kind : values()) {
      if (kind.wireName().equals(wireName)) {
        return Optional.of(kind);
      }
    }
    return Optional.empty();
  }
}
