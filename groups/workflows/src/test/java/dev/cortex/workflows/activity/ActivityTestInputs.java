package dev.cortex.workflows.activity;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.testing.Eventually;
import dev.cortex.workflows.jq.Jq;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import tools.jackson.databind.JsonNode;

/** Builds the inputs of one attempt for activity tests, with jq evaluation over real params. */
final class ActivityTestInputs {
  static final Duration DEADLINE = Duration.ofSeconds(30);

  private ActivityTestInputs() {}

  static ActivityEnvironment environment(Path home) {
    return environment(home, System.getenv());
  }

  static ActivityEnvironment environment(Path home, Map<String, String> variables) {
    return new ActivityEnvironment(
        new CortexHome(home, home.resolve("data")), variables, Clock.systemUTC());
  }

  static Step step(StepKind kind, Map<String, Object> with) {
    return new Step("s", kind, with, null, null, 1, null, null);
  }

  static Manifest manifest(Step step) {
    return new Manifest("t", "1", null, null, null, null, List.of(step));
  }

  static JsonNode json(String text) {
    return Json.mapper().readTree(text);
  }

  static ActivityInput input(
      StepKind kind, String with, Duration timeout, ActivityEnvironment environment) {
    return input(kind, json(with), timeout, environment, json("{}"));
  }

  static ActivityInput input(
      StepKind kind,
      JsonNode with,
      Duration timeout,
      ActivityEnvironment environment,
      JsonNode params) {
    return new ActivityInput(
        "s",
        with,
        manifest(step(kind, Map.of())),
        timeout,
        environment,
        new RunScope(),
        expressions(params));
  }

  /** The run's jq evaluation over {@code {params, steps}}, as the engine provides it. */
  static ActivityInput.Expressions expressions(JsonNode params) {
    Jq.Context context = Jq.Context.of(params);
    return new ActivityInput.Expressions() {
      @Override
      public JsonNode evaluate(String expression) throws ActivityFailure {
        try {
          return context.evaluate(expression);
        } catch (Jq.JqException e) {
          throw new ActivityFailure("jq", e.getMessage(), null, false);
        }
      }

      @Override
      public JsonNode evaluate(String expression, JsonNode input) throws ActivityFailure {
        try {
          return Jq.evaluate(expression, input);
        } catch (Jq.JqException e) {
          throw new ActivityFailure("jq", e.getMessage(), null, false);
        }
      }
    };
  }

  /** The failure of an attempt that must fail. */
  static ActivityFailure failure(Activity activity, ActivityInput input) {
    try {
      ActivityResult result = activity.run(input);
      throw new AssertionError("expected a failure, got " + result);
    } catch (ActivityFailure failure) {
      return failure;
    } catch (InterruptedException e) {
      throw new AssertionError("unexpected interrupt", e);
    }
  }

  /**
   * Runs an attempt on its own thread, interrupts it once {@code started} holds, and returns what
   * it threw (null if nothing) after it ended.
   */
  static Throwable interrupted(Activity activity, ActivityInput input, BooleanSupplier started)
      throws InterruptedException {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    Thread attempt =
        new Thread(
            () -> {
              try {
                activity.run(input);
              } catch (Throwable t) {
                thrown.set(t);
              }
            },
            "attempt");
    attempt.start();
    Eventually.until("the activity started", DEADLINE, started::getAsBoolean);
    attempt.interrupt();
    attempt.join(DEADLINE.toMillis());
    if (attempt.isAlive()) {
      throw new AssertionError("the attempt did not end after its interrupt");
    }
    return thrown.get();
  }

  /** Polls {@code condition} until it holds, failing after the deadline. */
}
