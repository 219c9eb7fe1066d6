package dev.cortex.workflows.manifest;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A workflow manifest, validated: the parameters it takes, the capabilities it declares, the MCP
 * servers its steps call and its steps in order. Built by {@link ManifestLoader}, which reports
 * every problem of a manifest before any record is made.
 */
public record Manifest(
    String name,
    String version,
    String description,
    Map<String, ParameterSpec> parameters,
    List<String> capabilities,
    Map<String, ServerSpec> servers,
    List<Step> steps) {

  public Manifest {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(version, "version");
    description = description == null ? "" : description;
    parameters = parameters == null ? Map.of() : Ordered.copy(parameters);
    capabilities = capabilities == null ? List.of() : List.copyOf(capabilities);
    servers = servers == null ? Map.of() : Ordered.copy(servers);
    steps = List.copyOf(Objects.requireNonNull(steps, "steps"));
    if (steps.isEmpty()) {
      throw new IllegalArgumentException("a manifest needs at least one step");
    }
  }

  /** Whether the manifest declares {@code capability}. */
  boolean declares(String capability) {
    return capabilities.contains(capability);
  }
}
