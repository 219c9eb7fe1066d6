package dev.cortex.workflows.manifest;

import java.util.List;
import java.util.stream.Collectors;

/** A manifest that cannot be used, with every problem found in it, in line order. */
public final class ManifestException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient List<ManifestProblem> problems;

  ManifestException(List<ManifestProblem> problems) {
    super(render(problems));
    this.problems = problems.stream().sorted(ManifestProblem.ORDER).toList();
  }

  /** The problems, sorted by line. */
  public List<ManifestProblem> problems() {
    return problems;
  }

  private static String render(List<ManifestProblem> problems) {
    return problems.stream()
        .sorted(ManifestProblem.ORDER)
        .map(ManifestProblem::render)
        .collect(Collectors.joining("\n"));
  }
}
