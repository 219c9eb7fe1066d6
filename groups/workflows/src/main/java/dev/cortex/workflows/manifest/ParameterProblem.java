package dev.cortex.workflows.manifest;

import java.util.Objects;

/** Why a parameter's value was refused: the parameter's name and a sentence. */
record ParameterProblem(String name, String message) {
  public ParameterProblem {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(message, "message");
  }

  /** {@code parameter 'name': message}. */
  String render() {
    return "parameter '" + name + "': " + message;
  }
}
