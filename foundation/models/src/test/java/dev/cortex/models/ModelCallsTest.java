package dev.cortex.models;

import static dev.cortex.models.Chats.ask;
import static dev.cortex.testing.FakeModelApi.failure;
import static dev.cortex.testing.FakeModelApi.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CancellationSignal;
import dev.cortex.base.CortexHome;
import dev.cortex.base.settings.CortexToml;
import dev.cortex.testing.FakeModelApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Retries, waits and fallbacks over the real client and a fake API; waits are recorded. */
class ModelCallsTest {
  static final long SEED = 42;
  static final ModelCalls.RetryPolicy POLICY =
      new ModelCalls.RetryPolicy(4, Duration.ofSeconds(1), Duration.ofSeconds(30));

  @TempDir Path home;

  private final FakeModelApi api = FakeModelApi.start();
  private final List<Duration> waits = new CopyOnWriteArrayList<>();
  private final ModelCalls.Sleeper recording = (duration, cancellation) -> waits.add(duration);
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final ModelCalls.Events heard =
      new ModelCalls.Events() {
        @Override
        public void retrying(
            ModelSpec model, ModelFailure failure, int attempt, int attempts, Duration wait) {
          events.add(
              "retrying " + model.name() + " " + attempt + "/" + attempts + " " + failure.kind());
        }

        @Override
        public void fallingBack(ModelSpec from, ModelSpec to, ModelFailure failure) {
          events.add("falling back " + from.name() + " -> " + to.name() + " " + failure.kind());
        }
      };
  private ModelCatalog catalog;
  private ApiKeys keys;

  @BeforeEach
  void catalog() throws Exception {
    Path config = Files.createDirectories(home.resolve("config"));
    Files.writeString(
        config.resolve(CortexToml.FILE),
        """
        [providers.fake]
        kind = "anthropic"
        base_url = "%s"
        key_variable = "FAKE_API_KEY"

        [providers.local]
        kind = "openai-compatible"
        base_url = "%s"

        [models.main]
        provider = "fake"
        api_name = "main-2026"
        context_tokens = 100000
        max_output_tokens = 100
        fallbacks = ["second", "last"]

        [models.second]
        provider = "fake"
        context_tokens = 100000

        [models.last]
        provider = "local"
        context_tokens = 8192
        """
            .formatted(api.url(), api.openAiUrl()));
    Map<String, String> env = Map.of("FAKE_API_KEY", "sk-fake-0123456789");
    catalog = ModelCatalog.of(CortexToml.load(config, env, ModelCatalog.TABLES), env);
    keys = new ApiKeys(new CortexHome(home, home.resolve("data")), env);
  }

  @AfterEach
  void stop() {
    api.close();
  }

  ModelCalls calls(ModelCalls.RetryPolicy policy) {
    return new ModelCalls(
        new HttpModelClient(), catalog, keys, policy, recording, new Random(SEED));
  }

  /** The waits of full jitter that a random seeded as the calls' one draws. */
  static List<Duration> jittered(int count) {
    Random random = new Random(SEED);
    List<Duration> expected = new ArrayList<>();
    for (int attempt = 1; attempt <= count; attempt++) {
      long bound =
          Math.min(
              Duration.ofSeconds(1).toNanos() << (attempt - 1), Duration.ofSeconds(30).toNanos());
      expected.add(Duration.ofNanos(random.nextLong(bound + 1)));
    }
    return expected;
  }

  @Test
  void call_retryableFailures_areRetried_afterExponentialWaitsWithFullJitter() throws Exception {
    api.answers(failure(500), failure(503), text("finally").thenDrop(), text("finally"));
    Heard listener = new Heard();

    ModelCalls.Answer answer =
        calls(POLICY).call("main", ask("ignored", "hi"), listener, heard, Cancellation.NONE);

    assertThat(answer.reply().text()).isEqualTo("finally");
    assertThat(answer.model().name()).isEqualTo("main");
    assertThat(answer.attempts()).isEqualTo(4);
    assertThat(api.requests()).hasSize(4);
    assertThat(waits).isEqualTo(jittered(3));
    assertThat(waits.get(0)).isLessThanOrEqualTo(Duration.ofSeconds(1));
    assertThat(waits.get(2)).isLessThanOrEqualTo(Duration.ofSeconds(4));
    assertThat(events)
        .containsExactly(
            "retrying main 1/4 SERVER", "retrying main 2/4 SERVER", "retrying main 3/4 NETWORK");
  }

  @Test
  void call_sendsTheApiName_withMaxTokensCappedAtTheModelsLimit() throws Exception {
    api.answers(text("ok"));

    calls(POLICY).call("main", ask("ignored", "hi"), new Heard(), heard, Cancellation.NONE);

    assertThat(api.lastRequest().body().path("model").asString()).isEqualTo("main-2026");
    assertThat(api.lastRequest().body().path("max_tokens").asInt()).isEqualTo(100);
    assertThat(api.lastRequest().header("x-api-key")).isEqualTo("sk-fake-0123456789");
  }

  @Test
  void call_retryAfter_isHonoured_andCappedByThePolicy() throws Exception {
    api.answers(
        failure(429).retryAfter("7"),
        failure(529).retryAfter("120"),
        failure(429).header("retry-after-ms", "250"),
        text("ok"));

    calls(POLICY).call("main", ask("m", "hi"), new Heard(), heard, Cancellation.NONE);

    assertThat(waits)
        .containsExactly(Duration.ofSeconds(7), Duration.ofSeconds(30), Duration.ofMillis(250));
  }

  @Test
  void call_notRetryable_failsAtOnce() {
    api.answers(failure(400).message("max_tokens: too large"), text("never"));

    assertThatThrownBy(
            () -> calls(POLICY).call("main", ask("m", "hi"), new Heard(), heard, Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> assertThat(f.kind()).isEqualTo(ModelFailure.Kind.INVALID_REQUEST));
    assertThat(api.requests()).hasSize(1);
    assertThat(waits).isEmpty();
    assertThat(events).isEmpty();
  }

  @Test
  void call_stillOverloadedAfterTheLastAttempt_fallsBackInOrder() throws Exception {
    ModelCalls.RetryPolicy twice =
        new ModelCalls.RetryPolicy(2, Duration.ofMillis(100), Duration.ofSeconds(1));
    api.answers(failure(529), failure(529), failure(429), failure(500), text("from the last one"));

    ModelCalls.Answer answer =
        calls(twice).call("main", ask("m", "hi"), new Heard(), heard, Cancellation.NONE);

    assertThat(answer.model().name()).isEqualTo("last");
    assertThat(answer.attempts()).isEqualTo(5);
    assertThat(answer.reply().text()).isEqualTo("from the last one");
    assertThat(api.requests())
        .extracting(r -> r.path() + " " + r.body().path("model").asString())
        .containsExactly(
            "/v1/messages main-2026",
            "/v1/messages main-2026",
            "/v1/messages second",
            "/v1/messages second",
            "/v1/chat/completions last");
    assertThat(api.lastRequest().header("authorization")).isNull();
    assertThat(events)
        .containsExactly(
            "retrying main 1/2 OVERLOADED",
            "falling back main -> second OVERLOADED",
            "retrying second 1/2 RATE_LIMITED",
            "falling back second -> last SERVER");
  }

  @Test
  void call_everyModelFails_throwsTheLastFailure() {
    api.answers(failure(529), failure(529), failure(503).message("down"));

    assertThatThrownBy(
            () ->
                calls(ModelCalls.RetryPolicy.NONE)
                    .call("main", ask("m", "hi"), new Heard(), heard, Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> assertThat(f.getMessage()).isEqualTo("the local API answered HTTP 503: down"));
    assertThat(api.requests()).hasSize(3);
  }

  @Test
  void call_timeoutsAndBrokenConnections_areRetriedButDoNotFallBack() {
    ModelCalls.RetryPolicy twice =
        new ModelCalls.RetryPolicy(2, Duration.ofMillis(100), Duration.ofSeconds(1));
    api.answers(text("a").thenDrop(), text("b").thenDrop(), text("never"));

    assertThatThrownBy(
            () -> calls(twice).call("main", ask("m", "hi"), new Heard(), heard, Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class, f -> assertThat(f.kind()).isEqualTo(ModelFailure.Kind.NETWORK));
    assertThat(api.requests()).hasSize(2);
    assertThat(api.unanswered()).isEqualTo(1);
  }

  @Test
  void call_failedAttemptAfterStreamedText_tellsTheListenerItRestarted() throws Exception {
    api.answers(text("Hel", "lo").thenError("overloaded_error", "Overloaded"), text("Hello"));
    Heard listener = new Heard();

    calls(POLICY).call("main", ask("m", "hi"), listener, heard, Cancellation.NONE);

    assertThat(listener.all)
        .containsExactly("text:Hel", "text:lo", "restarted", "text:H", "text:el", "text:lo");
  }

  @Test
  void call_unknownModel_isAnInvalidRequestNamingTheKnownOnes() {
    assertThatThrownBy(
            () ->
                calls(POLICY).call("gpt-9", ask("m", "hi"), new Heard(), heard, Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ModelFailure.Kind.INVALID_REQUEST);
              assertThat(f.getMessage())
                  .startsWith("unknown model 'gpt-9'; known: claude-opus-4-5, ")
                  .endsWith(", main, second, last");
            });
    assertThat(api.requests()).isEmpty();
  }

  @Test
  void call_providerWithoutItsKey_failsWithMissingKey_beforeAnyRequest() {
    ModelCalls calls =
        new ModelCalls(
            new HttpModelClient(),
            catalog,
            new ApiKeys(new CortexHome(home, home.resolve("data")), Map.of()),
            POLICY,
            recording,
            new Random(SEED));

    assertThatThrownBy(
            () -> calls.call("main", ask("m", "hi"), new Heard(), heard, Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ModelFailure.Kind.MISSING_KEY);
              assertThat(f.getMessage()).contains("FAKE_API_KEY");
            });
    assertThat(api.requests()).isEmpty();
  }

  @Test
  void call_alreadyCancelled_sendsNothing() {
    CancellationSignal cancelled = new CancellationSignal();
    cancelled.cancel();

    assertThatThrownBy(
            () -> calls(POLICY).call("main", ask("m", "hi"), new Heard(), heard, cancelled))
        .isInstanceOf(InterruptedException.class);
    assertThat(api.requests()).isEmpty();
  }

  @Test
  void realSleeper_endsItsWaitWhenTheCallIsCancelled() throws Exception {
    CancellationSignal cancel = new CancellationSignal();
    CompletableFuture<Void> sleeping =
        CompletableFuture.runAsync(
            () -> {
              try {
                ModelCalls.Sleeper.REAL.sleep(Duration.ofHours(1), cancel);
              } catch (InterruptedException e) {
                throw new java.util.concurrent.CompletionException(e);
              }
            });

    cancel.cancel();

    assertThatThrownBy(() -> sleeping.get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(InterruptedException.class);
  }

  @Test
  void realSleeper_waitsItsTime_whenNothingCancels() throws Exception {
    long start = System.nanoTime();

    ModelCalls.Sleeper.REAL.sleep(Duration.ofMillis(20), Cancellation.NONE);

    assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
  }

  @Test
  void retryPolicy_refusesNonsense() {
    assertThatThrownBy(() -> new ModelCalls.RetryPolicy(0, Duration.ZERO, Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> new ModelCalls.RetryPolicy(3, Duration.ofSeconds(10), Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(ModelCalls.RetryPolicy.DEFAULT.attempts()).isEqualTo(4);
  }
}
