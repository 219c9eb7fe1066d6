package dev.cortex.workflows.manifest;

import java.util.Comparator;
import java.util.Objects;

/**
 * One problem in a manifest: the file, the 1-based line, the field as a path such as {@code
 * steps[2].with.url} (empty for the manifest as a whole) and a sentence saying what is wrong.
 */
public record ManifestProblem(String file, int line, String field, String message) {
  static final Comparator<ManifestProblem> ORDER =
      Comparator.comparingInt(ManifestProblem::line)
          .thenComparing(ManifestProblem::field)
          .thenComparing(ManifestProblem::message);

  public ManifestProblem {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(message, "message");
  }

  /** {@code file:line: field: message}, the field left out when empty. */
  String render() {
    return file + ":" + line + ": " + (field.isEmpty() ? "" : field + ": ") + message;
  }
}
