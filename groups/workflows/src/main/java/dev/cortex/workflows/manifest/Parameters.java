package dev.cortex.workflows.manifest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Enforces a manifest's parameters where values enter: type, required, enum, min/max, unknown
 * names; defaults fill in what was not given.
 */
public final class Parameters {
  /** Where the values come from, which decides how they are read. */
  public enum Source {
    /** MCP arguments: each value must already have its JSON type; nothing is coerced. */
    JSON,
    /** {@code --param name=value} text, converted strictly per declared type. */
    CLI
  }

  private Parameters() {}

  /**
   * The parameters to run {@code manifest} with, in declaration order: each given value checked,
   * each missing one defaulted. A parameter neither given nor defaulted is left out unless
   * required.
   *
   * @throws ParameterException with every problem found
   */
  public static Map<String, Object> resolve(Manifest manifest, Map<String, ?> given, Source source)
      throws ParameterException {
    List<ParameterProblem> problems = new ArrayList<>();
    Map<String, Object> resolved = new LinkedHashMap<>();
    for (Map.Entry<String, ParameterSpec> entry : manifest.parameters().entrySet()) {
      String name = entry.getKey();
      ParameterSpec spec = entry.getValue();
      if (given.containsKey(name)) {
        accept(name, spec, given.get(name), source, problems).ifPresent(v -> resolved.put(name, v));
      } else if (spec.defaultValue() != null) {
        resolved.put(name, spec.defaultValue());
      } else if (spec.required()) {
        problems.add(new ParameterProblem(name, "is required" + describe(spec)));
      }
    }
    for (String name : new TreeSet<>(given.keySet())) {
      if (!manifest.parameters().containsKey(name)) {
        problems.add(new ParameterProblem(name, "unknown parameter" + known(manifest)));
      }
    }
    if (!problems.isEmpty()) {
      throw new ParameterException(problems);
    }
    return Collections.unmodifiableMap(resolved);
  }

  private static Optional<Object> accept(
      String name, ParameterSpec spec, Object raw, Source source, List<ParameterProblem> problems) {
    Object value = raw;
    if (source == Source.CLI) {
      if (!(raw instanceof String text)) {
        problems.add(new ParameterProblem(name, "expected command-line text"));
        return Optional.empty();
      }
      try {
        value = spec.type().fromCli(text);
      } catch (IllegalArgumentException e) {
        problems.add(new ParameterProblem(name, e.getMessage()));
        return Optional.empty();
      }
    }
    Optional<String> problem = spec.problem(value);
    if (problem.isPresent()) {
      problems.add(new ParameterProblem(name, problem.get()));
      return Optional.empty();
    }
    return Optional.of(value);
  }

  private static String describe(ParameterSpec spec) {
    String type = " (" + spec.type().wireName();
    if (spec.type() == ParameterType.ENUM) {
      type += ": " + String.join(", ", spec.values());
    }
    return type + (spec.description().isEmpty() ? "" : "; " + spec.description()) + ")";
  }

  private static String known(Manifest manifest) {
    return manifest.parameters().isEmpty()
        ? " (this workflow takes no parameters)"
        : " (known: " + String.join(", ", manifest.parameters().keySet()) + ")";
  }
}
