package dev.cortex.workflows.run;

import dev.cortex.mcp.Json;
import dev.cortex.mcp.SchemaCheck;
import dev.cortex.workflows.Jq;
import dev.cortex.workflows.Manifest;
import dev.cortex.workflows.Step;
import dev.cortex.workflows.StepKind;
import dev.cortex.workflows.Template;
import dev.cortex.workflows.activity.Activities;
import dev.cortex.workflows.activity.Activity;
import dev.cortex.workflows.activity.ActivityEnvironment;
import dev.cortex.workflows.activity.ActivityFailure;
import dev.cortex.workflows.activity.ActivityInput;
import dev.cortex.workflows.activity.ActivityResult;
import dev.cortex.workflows.activity.RunScope;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.NullNode;
import tools.jackson.databind.node.StringNode;

/**
 * Runs one step of a workflow, the same way for every engine: its {@code if}, its {@code for_each}
 * fan-out (at most {@code concurrency} items at once, outputs in item order), and for each attempt
 * the templates of {@code with} resolved, the inputs checked against the kind's schema, the
 * activity run under the step's timeout, and failed attempts retried as the step's retry says.
 */
public final class StepRunner {
  private static final ExecutorService ATTEMPTS =
      Executors.newCachedThreadPool(
          new java.util.concurrent.ThreadFactory() {
            private final AtomicInteger count = new AtomicInteger();

            @Override
            public Thread newThread(Runnable runnable) {
              Thread thread = new Thread(runnable, "cortex-step-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            }
          });

  private final Activities activities;
  private final ActivityEnvironment environment;
  private final Clock clock;
  private final Map<StepKind, SchemaCheck> inputChecks = new EnumMap<>(StepKind.class);

  public StepRunner(Activities activities, ActivityEnvironment environment) {
    this.activities = activities;
    this.environment = environment;
    this.clock = environment.clock();
    for (Activity activity : activities.all()) {
      inputChecks.put(activity.kind(), new SchemaCheck(activity.inputSchema(), "with"));
    }
  }

  /** Runs {@code step} over {@code context} and returns its record; never throws for a failure. */
  public StepRecord run(Step step, Manifest manifest, Jq.Context context, RunScope scope) {
    String startedAt = clock.instant().toString();
    long started = System.nanoTime();
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
      return fanOut(step, manifest, context, scope, startedAt, started);
    }
    Outcome outcome = attempts(step, manifest, context, scope);
    if (outcome.failure != null) {
      return failed(
          step,
          startedAt,
          started,
          outcome.attempts,
          new StepError(outcome.failure.kind(), outcome.failure.getMessage()),
          outcome.failure.output());
    }
    ActivityResult result = outcome.result;
    return new StepRecord(
        step.id(),
        kind,
        StepStatus.SUCCEEDED,
        outcome.attempts,
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
      RunScope scope,
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
    Semaphore slots = new Semaphore(step.concurrency());
    List<Future<?>> futures = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      int i = index;
      Jq.Context itemContext = context.with(items.get(i), i);
      Runnable work =
          () -> {
            long itemStart = System.nanoTime();
            outcomes[i] = attempts(step, manifest, itemContext, scope);
            durations[i] = millisSince(itemStart);
          };
      if (step.concurrency() == 1) {
        work.run();
        continue;
      }
      slots.acquireUninterruptibly();
      futures.add(
          ATTEMPTS.submit(
              () -> {
                try {
                  work.run();
                } finally {
                  slots.release();
                }
              }));
    }
    for (Future<?> future : futures) {
      try {
        future.get();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      } catch (ExecutionException e) {
        // attempts() reports failures in its outcome; nothing escapes it.
      }
    }
    ArrayNode outputs = JsonNodeFactory.instance.arrayNode();
    List<ItemRecord> records = new ArrayList<>();
    RunCost cost = RunCost.ZERO;
    int attempts = 0;
    String model = null;
    StepError firstError = null;
    int failures = 0;
    for (int i = 0; i < count; i++) {
      Outcome outcome = outcomes[i];
      attempts += outcome.attempts;
      if (outcome.failure != null) {
        failures++;
        StepError error = new StepError(outcome.failure.kind(), outcome.failure.getMessage());
        if (firstError == null) {
          firstError = new StepError(error.kind(), "item " + i + ": " + error.message());
        }
        outputs.add(
            outcome.failure.output() == null ? NullNode.getInstance() : outcome.failure.output());
        records.add(
            new ItemRecord(i, StepStatus.FAILED, outcome.attempts, durations[i], null, error));
      } else {
        outputs.add(outcome.result.output());
        cost = cost.plus(RunCost.of(outcome.result.cost()));
        model = model == null ? outcome.result.cost().model() : model;
        records.add(
            new ItemRecord(
                i,
                StepStatus.SUCCEEDED,
                outcome.attempts,
                durations[i],
                outcome.result.summary(),
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

  /** The outcome of all attempts at one (item of a) step: a result or the last failure. */
  private record Outcome(ActivityResult result, ActivityFailure failure, int attempts) {}

  private Outcome attempts(Step step, Manifest manifest, Jq.Context context, RunScope scope) {
    int attempt = 0;
    while (true) {
      attempt++;
      try {
        return new Outcome(attempt(step, manifest, context, scope), null, attempt);
      } catch (ActivityFailure failure) {
        if (!failure.retryable() || attempt >= step.retry().attempts()) {
          return new Outcome(null, failure, attempt);
        }
        try {
          Thread.sleep(step.retry().backoff().toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return new Outcome(null, failure, attempt);
        }
      }
    }
  }

  private ActivityResult attempt(Step step, Manifest manifest, Jq.Context context, RunScope scope)
      throws ActivityFailure {
    Activity activity = activities.forKind(step.kind());
    JsonNode with = resolve(Json.tree(step.with()), context);
    List<String> problems = inputChecks.get(step.kind()).problems(with);
    if (!problems.isEmpty()) {
      throw new ActivityFailure(
          "invalid_input",
          "the inputs of step '"
              + step.id()
              + "' are not valid for kind "
              + step.kind().wireName()
              + ": "
              + String.join("; ", problems),
          null,
          false);
    }
    ActivityInput input =
        new ActivityInput(
            step.id(),
            with,
            manifest,
            step.timeout(),
            environment,
            scope,
            new ActivityInput.Expressions() {
              @Override
              public JsonNode evaluate(String expression) throws ActivityFailure {
                try {
                  return context.evaluate(expression);
                } catch (Jq.JqException e) {
                  throw new ActivityFailure("jq", e.getMessage(), null, false);
                }
              }

              @Override
              public JsonNode evaluate(String expression, JsonNode value) throws ActivityFailure {
                try {
                  return Jq.evaluate(expression, value);
                } catch (Jq.JqException e) {
                  throw new ActivityFailure("jq", e.getMessage(), null, false);
                }
              }
            });
    Duration timeout = step.timeout();
    if (timeout == null) {
      return guarded(activity, input);
    }
    Future<ActivityResult> future = ATTEMPTS.submit(() -> guarded(activity, input));
    try {
      return future.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new ActivityFailure(
          "timeout", "step '" + step.id() + "' timed out after " + Describe.duration(timeout));
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new ActivityFailure(
          "interrupted", "step '" + step.id() + "' was interrupted", null, false);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof ActivityFailure failure) {
        throw failure;
      }
      throw internal(activity, e.getCause());
    }
  }

  private static ActivityResult guarded(Activity activity, ActivityInput input)
      throws ActivityFailure {
    try {
      return activity.run(input);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ActivityFailure(
          "interrupted", "step '" + input.stepId() + "' was interrupted", null, false);
    } catch (ActivityFailure failure) {
      throw failure;
    } catch (RuntimeException e) {
      throw internal(activity, e);
    }
  }

  private static ActivityFailure internal(Activity activity, Throwable cause) {
    System.err.println(
        "cortex: the " + activity.kind().wireName() + " activity failed unexpectedly: " + cause);
    return new ActivityFailure(
        "internal",
        "the " + activity.kind().wireName() + " activity failed unexpectedly; see the server log",
        null,
        false);
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

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
