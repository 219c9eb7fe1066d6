package dev.cortex.workflows.run;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * Where a run's manifest came from: {@code kind} is {@code path}, {@code library} or {@code
 * remote}; {@code ref} what the caller wrote; {@code location} where it was read (a file, or for a
 * remote ref {@code git+URL//PATH@COMMIT}). A remote ref also names its {@code repository} (the Git
 * URL), the manifest's {@code subpath} in it and the exact {@code commit}; the others leave them
 * null.
 */
public record WorkflowRef(
    String kind,
    String ref,
    String location,
    @JsonInclude(JsonInclude.Include.NON_NULL) String repository,
    @JsonInclude(JsonInclude.Include.NON_NULL) String subpath,
    @JsonInclude(JsonInclude.Include.NON_NULL) String commit) {

  /** The kind of a workflow read from a Git repository at a pinned commit. */
  public static final String REMOTE = "remote";

  public WorkflowRef {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(ref, "ref");
    Objects.requireNonNull(location, "location");
  }

  /**
   * A ref as stored: for a remote one, the repository, subpath and commit are read back from its
   * location.
   */
  public WorkflowRef(String kind, String ref, String location) {
    this(
        kind,
        ref,
        location,
        part(kind, location, 0),
        part(kind, location, 1),
        part(kind, location, 2));
  }

  /** A remote ref: the manifest at {@code subpath} of {@code repository} at {@code commit}. */
  public static WorkflowRef remote(String ref, String repository, String subpath, String commit) {
    return new WorkflowRef(
        REMOTE,
        ref,
        "git+" + repository + "//" + subpath + "@" + commit,
        repository,
        subpath,
        commit);
  }

  /** Part {@code index} (repository, subpath, commit) of a remote location, else null. */
  private static String part(String kind, String location, int index) {
    if (!REMOTE.equals(kind) || location == null || !location.startsWith("git+")) {
      return null;
    }
    int at = location.lastIndexOf('@');
    int slashes = location.lastIndexOf("//", at);
    if (at < 0 || slashes < "git+".length()) {
      return null;
    }
    return switch (index) {
      case 0 -> location.substring("git+".length(), slashes);
      case 1 -> location.substring(slashes + 2, at);
      default -> location.substring(at + 1);
    };
  }
}
