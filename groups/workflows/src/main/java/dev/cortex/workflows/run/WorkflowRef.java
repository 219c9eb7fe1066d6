package dev.cortex.workflows.run;

import java.util.Objects;

/**
 * Where a run's manifest came from: {@code kind} is {@code path} or {@code library} (later also
 * remote refs), {@code ref} what the caller wrote, {@code location} where it was read (a file, or a
 * repository and commit).
 */
public record WorkflowRef(String kind, String ref, String location) {
  public WorkflowRef {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(location, "location");
  }
}
