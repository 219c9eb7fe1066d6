package dev.cortex.workflows.manifest;

import java.util.List;
import java.util.stream.Collectors;

/** Parameters that cannot be used, with every problem found in them. */
public final class ParameterException extends Exception {
  private static final long serialVersionUID = 1L;

  private final transient List<ParameterProblem> problems;

  ParameterException(List<ParameterProblem> problems) {
    super(problems.stream().map(ParameterProblem::render).collect(Collectors.joining("\n")));
    this.problems = List.copyOf(problems);
  }

  /** The problems, in the manifest's parameter order, unknown names last. */
  List<ParameterProblem> problems() {
    return problems;
  }
}
