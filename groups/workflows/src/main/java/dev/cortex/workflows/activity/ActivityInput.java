package dev.cortex.workflows.activity;

import dev.cortex.workflows.manifest.Manifest;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * What one attempt of a step gets: its id, its inputs with templates resolved (already valid
 * against the activity's input schema), the manifest (for declared servers), the time left, the
 * environment, the run's shared scope, an evaluator of jq expressions over the run's context
 * ({@code {params, steps}}, plus {@code item} and {@code index} inside a {@code for_each}) and who
 * hears of the processes it starts.
 */
public record ActivityInput(
    String stepId,
    JsonNode with,
    Manifest manifest,
    Duration timeout,
    ActivityEnvironment environment,
    RunScope scope,
    Expressions expressions,
    ProcessObserver processes) {

  public ActivityInput {
    Objects.requireNonNull(stepId, "stepId");
    Objects.requireNonNull(with, "with");
    Objects.requireNonNull(manifest, "manifest");
    Objects.requireNonNull(environment, "environment");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(expressions, "expressions");
    processes = processes == null ? ProcessObserver.NONE : processes;
  }

  /** An input whose processes nobody records. */
  public ActivityInput(
      String stepId,
      JsonNode with,
      Manifest manifest,
      Duration timeout,
      ActivityEnvironment environment,
      RunScope scope,
      Expressions expressions) {
    this(stepId, with, manifest, timeout, environment, scope, expressions, ProcessObserver.NONE);
  }

  /** The step's timeout, when it has one; activities may pass it on (HTTP, JDBC). */
  public Optional<Duration> timeoutDuration() {
    return Optional.ofNullable(timeout);
  }

  /** Evaluates jq expressions for an activity (the {@code transform} kind). */
  public interface Expressions {
    /** The single value {@code expression} yields over the run's context. */
    JsonNode evaluate(String expression) throws ActivityFailure;

    /** The single value {@code expression} yields over {@code input}. */
    JsonNode evaluate(String expression, JsonNode input) throws ActivityFailure;
  }
}
