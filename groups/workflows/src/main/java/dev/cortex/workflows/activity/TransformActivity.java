package dev.cortex.workflows.activity;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.workflows.jq.Template;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.util.List;
import java.util.Map;
import net.thisptr.jackson.jq.JsonQuery;
import net.thisptr.jackson.jq.Versions;
import net.thisptr.jackson.jq.exception.JsonQueryException;
import tools.jackson.databind.JsonNode;

/**
 * The {@code transform} kind: evaluates one jq expression over the run's context ({@code params},
 * {@code steps}, and {@code item}, {@code index} in a {@code for_each}) or over a given input.
 */
public final class TransformActivity implements Activity {
  public TransformActivity() {}

  @Override
  public StepKind kind() {
    return StepKind.TRANSFORM;
  }

  @Override
  public String description() {
    return "Evaluates a jq expression over the run's parameters and step outputs, or over a given"
        + " input, and returns its value.";
  }

  @Override
  public String outputDescription() {
    return "The single value the expression yields.";
  }

  @Override
  public Map<String, Object> inputSchema() {
    return Schema.object()
        .required(
            "expression",
            Schema.string(
                "A bare jq expression (no ${{ }}) that yields exactly one value, e.g."
                    + " [.steps.rows.rows[] | .n]; it runs over {params, steps} unless input is"
                    + " given.",
                1,
                -1))
        .optional(
            "input",
            Map.of(
                "description",
                "Any JSON value (templates allowed) the expression runs over instead of the run's"
                    + " context."))
        .build();
  }

  @Override
  public List<String> preflight(Step step, Manifest manifest, ActivityEnvironment environment) {
    if (!(step.with().get("expression") instanceof String expression)) {
      return List.of();
    }
    if (Template.whole(expression).isPresent()) {
      return List.of(
          "step '" + step.id() + "': expression is a bare jq expression; write it without ${{ }}");
    }
    if (!OutputText.isLiteral(expression)) {
      return List.of();
    }
    try {
      JsonQuery.compile(expression, Versions.JQ_1_6);
      return List.of();
    } catch (JsonQueryException | RuntimeException e) {
      return List.of("step '" + step.id() + "': expression '" + expression + "' is not valid jq");
    }
  }

  @Override
  public boolean readsRunContext() {
    return true;
  }

  @Override
  public ActivityResult run(ActivityInput input) throws ActivityFailure {
    JsonNode with = input.with();
    String expression = with.path("expression").asString("");
    JsonNode value;
    try {
      value =
          with.has("input")
              ? input.expressions().evaluate(expression, with.get("input"))
              : input.expressions().evaluate(expression);
    } catch (ActivityFailure e) {
      throw new ActivityFailure("jq", e.getMessage(), e.output(), false);
    }
    return ActivityResult.of(value, summary(value));
  }

  static String summary(JsonNode value) {
    if (value.isArray()) {
      return "array of " + value.size();
    }
    if (value.isObject()) {
      return "object with " + OutputText.count(value.size(), "key");
    }
    if (value.isString()) {
      return "string of " + OutputText.count(value.stringValue().length(), "char");
    }
    if (value.isNumber()) {
      return "number";
    }
    if (value.isBoolean()) {
      return String.valueOf(value.booleanValue());
    }
    return "null";
  }
}
