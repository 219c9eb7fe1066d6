package dev.cortex.workflows.activity;

import static dev.cortex.workflows.activity.ActivityTestInputs.environment;
import static dev.cortex.workflows.activity.ActivityTestInputs.failure;
import static dev.cortex.workflows.activity.ActivityTestInputs.json;
import static dev.cortex.workflows.activity.ActivityTestInputs.manifest;
import static dev.cortex.workflows.activity.ActivityTestInputs.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Json;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransformActivityTest {
  private final TransformActivity transform = new TransformActivity();

  @TempDir Path home;

  private ActivityInput input(Map<String, Object> with) {
    return ActivityTestInputs.input(
        StepKind.TRANSFORM,
        json(Json.write(with)),
        null,
        environment(home),
        json("{\"n\": [1, 2, 3], \"name\": \"cortex\"}"));
  }

  @Test
  void run_expression_evaluatesOverTheRunContext() throws Exception {
    ActivityResult result = transform.run(input(Map.of("expression", "[.params.n[] * 2]")));

    assertThat(result.output().toString()).isEqualTo("[2,4,6]");
    assertThat(result.summary()).isEqualTo("array of 3");
  }

  @Test
  void run_withInput_evaluatesOverIt() throws Exception {
    ActivityResult result =
        transform.run(input(Map.of("expression", ".a + 1", "input", Map.of("a", 41))));

    assertThat(result.output().asInt()).isEqualTo(42);
    assertThat(result.summary()).isEqualTo("number");
  }

  @Test
  void run_summaries_describeTheValue() throws Exception {
    assertThat(transform.run(input(Map.of("expression", ".params"))).summary())
        .isEqualTo("object with 2 keys");
    assertThat(transform.run(input(Map.of("expression", "{a: 1}"))).summary())
        .isEqualTo("object with 1 key");
    assertThat(transform.run(input(Map.of("expression", ".params.name"))).summary())
        .isEqualTo("string of 6 chars");
    assertThat(transform.run(input(Map.of("expression", ".params.n | length > 2"))).summary())
        .isEqualTo("true");
    assertThat(transform.run(input(Map.of("expression", ".params.missing"))).summary())
        .isEqualTo("null");
  }

  @Test
  void run_jqErrors_failJqNotRetryable() {
    for (String expression : new String[] {"error(\"boom\")", ".params.n[]", "[.params.n"}) {
      ActivityFailure failure = failure(transform, input(Map.of("expression", expression)));

      assertThat(failure.kind()).as(expression).isEqualTo("jq");
      assertThat(failure.retryable()).as(expression).isFalse();
    }
  }

  @Test
  void preflight_wholeTemplate_isAProblem() {
    Step step = step(StepKind.TRANSFORM, Map.of("expression", "${{ .params.n }}"));

    assertThat(transform.preflight(step, manifest(step), environment(home)))
        .containsExactly("step 's': expression is a bare jq expression; write it without ${{ }}");
  }

  @Test
  void preflight_badSyntax_isAProblem_goodSyntax_isNot() {
    Step bad = step(StepKind.TRANSFORM, Map.of("expression", "[.a"));
    Step good = step(StepKind.TRANSFORM, Map.of("expression", "[.steps.rows.rows[] | .n]"));

    assertThat(transform.preflight(bad, manifest(bad), environment(home)))
        .containsExactly("step 's': expression '[.a' is not valid jq");
    assertThat(transform.preflight(good, manifest(good), environment(home))).isEmpty();
  }
}
