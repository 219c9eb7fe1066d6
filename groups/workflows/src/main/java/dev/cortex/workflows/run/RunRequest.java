package dev.cortex.workflows.run;

import dev.cortex.workflows.manifest.Manifest;
import java.util.Map;
import java.util.Objects;

/**
 * What to run: the validated manifest, its text as read (kept with the run so that a resumption
 * runs exactly the same workflow), where it came from and the resolved parameters.
 */
public record RunRequest(
    Manifest manifest, String manifestText, WorkflowRef source, Map<String, Object> parameters) {
  public RunRequest {
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(manifestText, "manifestText");
    Objects.requireNonNull(source, "source");
    parameters = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(parameters));
  }
}
