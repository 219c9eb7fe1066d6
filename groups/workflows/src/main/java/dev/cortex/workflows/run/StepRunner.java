package dev.cortex.workflows.run;

import dev.cortex.base.Json;
import dev.cortex.mcp.tool.SchemaCheck;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.Activity;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.activity.ActivityFailure;
import dev.cortex.workflows.activity.ActivityResult;
import dev.cortex.workflows.activity.RunScope;
import dev.cortex.workflows.jq.Jq;
import dev.cortex.workflows.jq.Template;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.StringNode;

/**
 * Runs one step of a workflow, the same way for every engine: its {@code if}, its {@code for_each}
 * fan-out (outputs in item order), the templates of {@code with} resolved and the inputs checked
 * against the kind's schema, and the step's record with its summary, cost and items. How the
 * attempts of a resolved call are carried out (timeouts, retries) and how items run side by side is
 * the engine's {@link Executor}: threads for the embedded engine, activities for Temporal.
 */
public final class StepRunner {
  /** The part of running a step that differs between engines. */
  public interface Executor {
    /**
     * Carries out every attempt of {@code call} as its step's timeout and retry say, and returns
     * the result or the last failure with the number of attempts made; never throws for a failure.
     */
    Outcome attempts(Call call);

    /** Runs {@code task} for 0 to {@code count - 1}, at most {@code concurrency} at once. */
    void fanOut(int count, int concurrency, java.util.function.IntConsumer task);
  }

  /**
   * One resolved call of a step, or of one element of its for_each: {@code with} has its templates
   * resolved and is valid for the kind; {@code context} is what the step's expressions ran over.
   */
  public record Call(Step step, Manifest manifest, JsonNode with, Jq.Context context) {
    public Call {
      Objects.requireNonNull(step, "step");
      Objects.requireNonNull(manifest, "manifest");
      Objects.requireNonNull(with, "with");
      Objects.requireNonNull(context, "context");
    }
  }

  /** The outcome of all attempts at one call: a result or the last failure, and the attempts. */
  public record Outcome(ActivityResult result, ActivityFailure failure, int attempts) {
    public static Outcome succeeded(ActivityResult result, int attempts) {
      return new Outcome(Objects.requireNonNull(result, "result"), null, attempts);
    }

    public static Outcome failed(ActivityFailure failure, int attempts) {
      return new Outcome(null, Objects.requireNonNull(failure, "failure"), attempts);
    }
  }

  private final Activities activities;
  private final ActivityEnvironment environment;
  private final Clock clock;
  private final LongSupplier nanoTime;
  private final Map<StepKind, SchemaCheck> inputChecks = new EnumMap<>(StepKind.class);

  /** The embedded engine's runner: attempts on threads of this process. */
  public StepRunner(Activities activities, ActivityEnvironment environment) {
    this(activities, environment, environment.clock(), System::nanoTime);
  }

  /**
   * A runner for an engine that brings its own {@link Executor}, with step times from {@code clock}
   * and durations from {@code nanoTime}; {@code activities} give the input schemas.
   */
  public StepRunner(Activities activities, Clock clock, LongSupplier nanoTime) {
    this(activities, null, clock, nanoTime);
  }

  private StepRunner(
      Activities activities, ActivityEnvironment environment, Clock clock, LongSupplier nanoTime) {
    this.activities = activities;
    this.environment = environment;
    this.clock = clock;
    this.nanoTime = nanoTime;
    for (Activity activity : activities.all()) {
      inputChecks.put(activity.kind(), new SchemaCheck(activity.inputSchema(), "with"));
    }
  }

  /**
   * Runs {@code step} over {@code context} on threads of this process, with {@code scope} for what
   * the run keeps open; returns its record and never throws for a failure.
   */
  public StepRecord run(Step step, Manifest manifest, Jq.Context context, RunScope scope) {
    return run(step, manifest, context, scope, dev.cortex.workflows.activity.ProcessObserver.NONE);
  }

  /**
   * As {@link #run(Step, Manifest, Jq.Context, RunScope)}, telling {@code processes} of every
   * process an attempt starts and of its end.
   */
  public StepRecord run(
      Step step,
      Manifest manifest,
      Jq.Context context,
      RunScope scope,
      dev.cortex.workflows.activity.ProcessObserver processes) {
    if (environment == null) {
      throw new IllegalStateException("this runner has no environment to run activities in");
    }
    return run(
        step, manifest, context, new LocalExecutor(activities, environment, scope, processes));
  }

  /** Runs {@code step} over {@code context} with {@code executor}; never throws for a failure. */
  public StepRecord run(Step step, Manifest manifest, Jq.Context context, Executor executor) {
    String startedAt = clock.instant().toString();
    long started = nanoTime.getAsLong();
    String kind = step.kind().wireName();
    if (step.condition() != null) {
      try {
        if (!truthy(context.evaluate(step.condition()))) {
          return new StepRecord(
              step.id(),
              kind,
              StepStatus.SKIPPED,
              0,
              startedAt,
              clock.instant().toString(),
              millisSince(started),
              RunCost.ZERO,
              null,
              NullNode.getInstance(),
              "skipped: if was false",
              null,
              null);
        }
      } catch (Jq.JqException e) {
        return failed(step, startedAt, started, 0, new StepError("if", e.getMessage()), null);
      }
    }
    if (step.forEach() != null) {
      return fanOut(step, manifest, context, executor, startedAt, started);
    }
    Outcome outcome = call(step, manifest, context, executor);
    if (outcome.failure() != null) {
      return failed(
          step,
          startedAt,
          started,
          outcome.attempts(),
          new StepError(outcome.failure().kind(), outcome.failure().getMessage()),
          outcome.failure().output());
    }
    ActivityResult result = outcome.result();
    return new StepRecord(
        step.id(),
        kind,
        StepStatus.SUCCEEDED,
        outcome.attempts(),
        startedAt,
        clock.instant().toString(),
        millisSince(started),
        RunCost.of(result.cost()),
        result.cost().model(),
        result.output(),
        result.summary(),
        null,
        null);
  }

  private StepRecord fanOut(
      Step step,
      Manifest manifest,
      Jq.Context context,
      Executor executor,
      String startedAt,
      long started) {
    JsonNode items;
    try {
      items = context.evaluate(step.forEach());
    } catch (Jq.JqException e) {
      return failed(step, startedAt, started, 0, new StepError("for_each", e.getMessage()), null);
    }
    if (!items.isArray()) {
      return failed(
          step,
          startedAt,
          started,
          0,
          new StepError(
              "for_each",
              "for_each of step '"
                  + step.id()
                  + "' gave "
                  + Describe.value(items)
                  + ", not an array"),
          null);
    }
    int count = items.size();
    Outcome[] outcomes = new Outcome[count];
    long[] durations = new long[count];
    executor.fanOut(
        count,
        step.concurrency(),
        i -> {
          long itemStart = nanoTime.getAsLong();
          outcomes[i] = call(step, manifest, context.with(items.get(i), i), executor);
          durations[i] = millisSince(itemStart);
        });
    ArrayNode outputs = JsonNodeFactory.instance.arrayNode();
    List<ItemRecord> records = new ArrayList<>();
    RunCost cost = RunCost.ZERO;
    int attempts = 0;
    String model = null;
    StepError firstError = null;
    int failures = 0;
    for (int i = 0; i < count; i++) {
      Outcome outcome =
          outcomes[i] != null ? outcomes[i] : Outcome.failed(Attempt.interrupted(step.id()), 0);
      attempts += outcome.attempts();
      if (outcome.failure() != null) {
        failures++;
        StepError error = new StepError(outcome.failure().kind(), outcome.failure().getMessage());
        if (firstError == null) {
          firstError = new StepError(error.kind(), "item " + i + ": " + error.message());
        }
        outputs.add(
            outcome.failure().output() == null
                ? NullNode.getInstance()
                : outcome.failure().output());
        records.add(
            new ItemRecord(i, StepStatus.FAILED, outcome.attempts(), durations[i], null, error));
      } else {
        outputs.add(outcome.result().output());
        cost = cost.plus(RunCost.of(outcome.result().cost()));
        model = model == null ? outcome.result().cost().model() : model;
        records.add(
            new ItemRecord(
                i,
                StepStatus.SUCCEEDED,
                outcome.attempts(),
                durations[i],
                outcome.result().summary(),
                null));
      }
    }
    String summary =
        count
            + (count == 1 ? " item" : " items")
            + (failures == 0 ? "" : ", " + failures + " failed");
    return new StepRecord(
        step.id(),
        step.kind().wireName(),
        failures == 0 ? StepStatus.SUCCEEDED : StepStatus.FAILED,
        attempts,
        startedAt,
        clock.instant().toString(),
        millisSince(started),
        cost,
        model,
        outputs,
        summary,
        firstError,
        records);
  }

  /**
   * Resolves and checks the inputs of one call, then has the executor carry out its attempts. Bad
   * inputs are not retried: they fail as the first attempt.
   */
  private Outcome call(Step step, Manifest manifest, Jq.Context context, Executor executor) {
    JsonNode with;
    try {
      with = resolve(Json.tree(step.with()), context);
    } catch (ActivityFailure failure) {
      return Outcome.failed(failure, 1);
    }
    List<String> problems = inputChecks.get(step.kind()).problems(with);
    if (!problems.isEmpty()) {
      return Outcome.failed(
          new ActivityFailure(
              "invalid_input",
              "the inputs of step '"
                  + step.id()
                  + "' are not valid for kind "
                  + step.kind().wireName()
                  + ": "
                  + String.join("; ", problems),
              null,
              false),
          1);
    }
    return executor.attempts(new Call(step, manifest, with, context));
  }

  /** {@code with} with every template evaluated over {@code context}. */
  static JsonNode resolve(JsonNode value, Jq.Context context) throws ActivityFailure {
    if (value.isString()) {
      String text = value.asString();
      if (!text.contains("${{")) {
        return value;
      }
      try {
        java.util.Optional<String> whole = Template.whole(text);
        if (whole.isPresent()) {
          return context.evaluate(whole.get());
        }
        StringBuilder out = new StringBuilder();
        Matcher matcher = Template.PATTERN.matcher(text);
        int last = 0;
        while (matcher.find()) {
          out.append(text, last, matcher.start());
          JsonNode part = context.evaluate(matcher.group(1).trim());
          out.append(part.isString() ? part.asString() : Json.write(part));
          last = matcher.end();
        }
        out.append(text.substring(last));
        return StringNode.valueOf(out.toString());
      } catch (Jq.JqException e) {
        throw new ActivityFailure("template", e.getMessage(), null, false);
      }
    }
    if (value.isObject()) {
      tools.jackson.databind.node.ObjectNode copy = JsonNodeFactory.instance.objectNode();
      for (Map.Entry<String, JsonNode> entry : value.properties()) {
        copy.set(entry.getKey(), resolve(entry.getValue(), context));
      }
      return copy;
    }
    if (value.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode();
      for (JsonNode item : value) {
        copy.add(resolve(item, context));
      }
      return copy;
    }
    return value;
  }

  static boolean truthy(JsonNode value) {
    return !(value == null
        || value.isNull()
        || value.isMissingNode()
        || value.isBoolean() && !value.asBoolean());
  }

  private StepRecord failed(
      Step step, String startedAt, long started, int attempts, StepError error, JsonNode output) {
    return new StepRecord(
        step.id(),
        step.kind().wireName(),
        StepStatus.FAILED,
        attempts,
        startedAt,
        clock.instant().toString(),
        millisSince(started),
        RunCost.ZERO,
        null,
        output == null ? NullNode.getInstance() : output,
        "failed: " + error.kind(),
        error,
        null);
  }

  private long millisSince(long nanos) {
    return (nanoTime.getAsLong() - nanos) / 1_000_000;
  }
}
