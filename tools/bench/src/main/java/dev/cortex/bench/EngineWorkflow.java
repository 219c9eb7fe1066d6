package dev.cortex.bench;

import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestException;
import dev.cortex.workflows.manifest.ManifestLoader;
import java.util.Map;

/**
 * A generated workflow of {@code steps} no-op {@code transform} steps {@code s0, s1, ...}, each one
 * jq expression that returns a small number: what is left of a step's cost is the engine's.
 *
 * @param variant what each step's expression reads
 * @param yaml the manifest text, as a run stores it
 * @param manifest the manifest as {@link ManifestLoader} parsed it
 * @param ids the step ids, in order
 * @param expressions each step's expression, in order
 */
record EngineWorkflow(
    Variant variant, String yaml, Manifest manifest, String[] ids, String[] expressions) {

  /** The workflow's parameters: {@code n}, which every step's output is in the end. */
  static final Map<String, Object> PARAMETERS = Map.of("n", 7);

  /** What the steps read. */
  enum Variant {
    /** Every step returns {@code .params.n}. */
    PARAMS("params", ".params.n"),
    /** Step {@code i} returns the previous step's output, {@code .steps.s<i-1>}. */
    CHAIN("chain", ".steps.s<i-1>");

    final String label;
    final String reads;

    Variant(String label, String reads) {
      this.label = label;
      this.reads = reads;
    }

    String expression(int position) {
      return this == PARAMS || position == 0 ? ".params.n" : ".steps.s" + (position - 1);
    }
  }

  static EngineWorkflow of(Variant variant, int steps) {
    String[] ids = new String[steps];
    String[] expressions = new String[steps];
    StringBuilder yaml =
        new StringBuilder()
            .append("name: engine-bench-")
            .append(variant.label)
            .append('-')
            .append(steps)
            .append("\nversion: 1.0.0\n")
            .append("description: ")
            .append(steps)
            .append(" no-op transform steps, each reading ")
            .append(variant.reads)
            .append(".\nparameters:\n  n:\n    type: integer\n    default: 7\nsteps:\n");
    for (int i = 0; i < steps; i++) {
      ids[i] = "s" + i;
      expressions[i] = variant.expression(i);
      yaml.append("  - id: ")
          .append(ids[i])
          .append("\n    kind: transform\n    with:\n      expression: \"")
          .append(expressions[i])
          .append("\"\n");
    }
    String text = yaml.toString();
    try {
      return new EngineWorkflow(
          variant, text, ManifestLoader.parse("engine-bench.yaml", text), ids, expressions);
    } catch (ManifestException e) {
      throw new IllegalStateException("the generated workflow does not load: " + e.getMessage(), e);
    }
  }

  int steps() {
    return ids.length;
  }

  String name() {
    return manifest.name();
  }
}
