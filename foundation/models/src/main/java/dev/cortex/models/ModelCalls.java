package dev.cortex.models;

import dev.cortex.base.Cancellation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls a model of the catalog by its name, as a session or a step names it: the request goes to
 * the model's provider under its API name, its output limit capped at the model's. A failure that
 * may pass ({@link ModelFailure#retryable()}) is tried again after an exponential backoff with full
 * jitter, or after the {@code retry-after} the provider asked for (both capped by the policy); when
 * a model stays rate-limited, overloaded or failing on the server's side after its last attempt,
 * the next of its {@link ModelSpec#fallbacks() fallbacks} is tried the same way. Waits end early
 * when the call is cancelled.
 */
public final class ModelCalls {
  private static final Logger log = LoggerFactory.getLogger(ModelCalls.class);

  /** The failures after which a fallback model is tried. */
  private static final Set<ModelFailure.Kind> FALL_BACK_ON =
      Set.of(
          ModelFailure.Kind.RATE_LIMITED, ModelFailure.Kind.OVERLOADED, ModelFailure.Kind.SERVER);

  private final ModelClient client;
  private final ModelCatalog catalog;
  private final ApiKeys keys;
  private final RetryPolicy policy;
  private final Sleeper sleeper;
  private final RandomGenerator random;

  public ModelCalls(
      ModelClient client,
      ModelCatalog catalog,
      ApiKeys keys,
      RetryPolicy policy,
      Sleeper sleeper,
      RandomGenerator random) {
    this.client = Objects.requireNonNull(client, "client");
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.keys = Objects.requireNonNull(keys, "keys");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.random = Objects.requireNonNull(random, "random");
  }

  /**
   * A model's answer.
   *
   * @param model the model that answered (the one asked for, or a fallback)
   * @param attempts how many requests the answer took, over every model tried
   */
  public record Answer(Reply reply, ModelSpec model, int attempts) {
    public Answer {
      Objects.requireNonNull(reply, "reply");
      Objects.requireNonNull(model, "model");
    }
  }

  /** Hears what a call does besides answering: its retries and fallbacks. */
  public interface Events {
    /**
     * Attempt {@code attempt} of {@code attempts} failed with {@code failure}; the next follows
     * after {@code wait}.
     */
    void retrying(ModelSpec model, ModelFailure failure, int attempt, int attempts, Duration wait);

    /** {@code from} failed its last attempt with {@code failure}; {@code to} is tried next. */
    void fallingBack(ModelSpec from, ModelSpec to, ModelFailure failure);

    /** Hears nothing. */
    Events NONE =
        new Events() {
          @Override
          public void retrying(
              ModelSpec model, ModelFailure failure, int attempt, int attempts, Duration wait) {}

          @Override
          public void fallingBack(ModelSpec from, ModelSpec to, ModelFailure failure) {}
        };
  }

  /**
   * How a model is tried again.
   *
   * @param attempts the most requests to one model, the first included (1 to 20)
   * @param base the wait before the second attempt, doubled for each one after
   * @param cap the longest wait, also for a provider's {@code retry-after}
   */
  public record RetryPolicy(int attempts, Duration base, Duration cap) {
    /** Four attempts, waits of up to 1 s, 2 s, 4 s, none longer than 30 s. */
    public static final RetryPolicy DEFAULT =
        new RetryPolicy(4, Duration.ofSeconds(1), Duration.ofSeconds(30));

    /** One attempt, no retry. */
    public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO);

    public RetryPolicy {
      if (attempts < 1 || attempts > 20) {
        throw new IllegalArgumentException("attempts must be 1 to 20, got " + attempts);
      }
      Objects.requireNonNull(base, "base");
      Objects.requireNonNull(cap, "cap");
      if (base.isNegative() || cap.isNegative() || cap.compareTo(base) < 0) {
        throw new IllegalArgumentException(
            "waits must be 0 or more, the cap no less than the base");
      }
    }

    /**
     * The wait before attempt {@code attempt + 1}: the provider's {@code retryAfter} when it gave
     * one, else a random time up to {@code base * 2^(attempt - 1)}; never more than the cap.
     */
    Duration wait(int attempt, Duration retryAfter, RandomGenerator random) {
      if (retryAfter != null) {
        return retryAfter.compareTo(cap) > 0 ? cap : retryAfter;
      }
      long ceiling = cap.toNanos();
      long exponential = base.toNanos();
      for (int i = 1; i < attempt && exponential < ceiling; i++) {
        exponential = exponential > ceiling / 2 ? ceiling : exponential * 2;
      }
      long bound = Math.min(exponential, ceiling);
      return bound <= 0 ? Duration.ZERO : Duration.ofNanos(random.nextLong(bound + 1));
    }
  }

  /** Waits between attempts; a cancellation ends the wait with an {@link InterruptedException}. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(Duration duration, Cancellation cancellation) throws InterruptedException;

    /** Waits in real time. */
    Sleeper REAL =
        (duration, cancellation) -> {
          CountDownLatch cancelled = new CountDownLatch(1);
          Cancellation.Registration registration = cancellation.onCancel(cancelled::countDown);
          try {
            if (cancelled.await(duration.toNanos(), TimeUnit.NANOSECONDS)) {
              throw new InterruptedException("the call was cancelled");
            }
          } finally {
            registration.close();
          }
        };
  }

  /**
   * Calls the model named {@code model} with {@code request} (whose own model name is replaced by
   * the model's API name), retrying and falling back as the class says.
   *
   * @param listener hears the answer as it streams; {@link StreamListener#restarted()} when a
   *     failed attempt had streamed something and another attempt follows
   * @throws ModelFailure the last failure, when no attempt of any model answered; {@link
   *     ModelFailure.Kind#INVALID_REQUEST} naming the known models for a model the catalog does not
   *     know; {@link ModelFailure.Kind#MISSING_KEY} when a model's provider has no key
   * @throws InterruptedException when the call is cancelled, or its thread interrupted
   */
  public Answer call(
      String model,
      ChatRequest request,
      StreamListener listener,
      Events events,
      Cancellation cancellation)
      throws ModelFailure, InterruptedException {
    ModelSpec first =
        catalog
            .model(model)
            .orElseThrow(
                () ->
                    new ModelFailure(
                        ModelFailure.Kind.INVALID_REQUEST,
                        0,
                        null,
                        "unknown model '" + model + "'; known: " + catalog.knownModels()));
    List<ModelSpec> chain = new ArrayList<>();
    chain.add(first);
    for (String fallback : first.fallbacks()) {
      catalog.model(fallback).ifPresent(chain::add);
    }
    int sent = 0;
    for (int i = 0; ; i++) {
      ModelSpec spec = chain.get(i);
      Tried tried = tryModel(spec, request, listener, events, cancellation, sent);
      sent = tried.sent();
      if (tried.reply() != null) {
        return new Answer(tried.reply(), spec, sent);
      }
      ModelFailure failure = tried.failure();
      if (i + 1 >= chain.size() || !FALL_BACK_ON.contains(failure.kind())) {
        throw failure;
      }
      ModelSpec next = chain.get(i + 1);
      log.info(
          "{} failed its last attempt ({}); falling back to {}",
          spec.name(),
          failure.kind(),
          next.name());
      events.fallingBack(spec, next, failure);
    }
  }

  /** Every attempt at one model: its reply, or the failure of its last attempt. */
  private record Tried(Reply reply, ModelFailure failure, int sent) {}

  private Tried tryModel(
      ModelSpec spec,
      ChatRequest request,
      StreamListener listener,
      Events events,
      Cancellation cancellation,
      int sent)
      throws ModelFailure, InterruptedException {
    ModelProvider provider = catalog.provider(spec);
    String key = keys.require(provider);
    ChatRequest sending = capped(request, spec);
    for (int attempt = 1; ; attempt++) {
      if (cancellation.isCancelled()) {
        throw new InterruptedException("the call was cancelled");
      }
      Heard heard = new Heard(listener);
      sent++;
      try {
        return new Tried(client.stream(provider, key, sending, heard, cancellation), null, sent);
      } catch (ModelFailure failure) {
        boolean again = failure.retryable() && attempt < policy.attempts();
        boolean fallback = !again && FALL_BACK_ON.contains(failure.kind());
        if (heard.any && (again || fallback)) {
          listener.restarted();
        }
        if (!again) {
          if (failure.retryable()) {
            return new Tried(null, failure, sent);
          }
          throw failure;
        }
        Duration wait = policy.wait(attempt, failure.retryAfter(), random);
        log.info(
            "{} attempt {} of {} failed ({}); trying again in {} ms",
            spec.name(),
            attempt,
            policy.attempts(),
            failure.kind(),
            wait.toMillis());
        events.retrying(spec, failure, attempt, policy.attempts(), wait);
        sleeper.sleep(wait, cancellation);
      }
    }
  }

  /** {@code request} to {@code spec} under its API name, its output limit at most the model's. */
  private static ChatRequest capped(ChatRequest request, ModelSpec spec) {
    return request
        .withModel(spec.apiName())
        .withMaxTokens(Math.min(request.maxTokens(), spec.maxOutputTokens()));
  }

  /** Passes a stream on and remembers whether anything of it was heard. */
  private static final class Heard implements StreamListener {
    private final StreamListener listener;
    boolean any;

    Heard(StreamListener listener) {
      this.listener = listener;
    }

    @Override
    public void text(String delta) {
      any = true;
      listener.text(delta);
    }

    @Override
    public void thinking(String delta) {
      any = true;
      listener.thinking(delta);
    }

    @Override
    public void restarted() {
      listener.restarted();
    }
  }
}
