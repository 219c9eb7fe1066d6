package dev.cortex.models;

import static dev.cortex.models.Chats.ask;
import static dev.cortex.testing.FakeModelApi.failure;
import static dev.cortex.testing.FakeModelApi.reply;
import static dev.cortex.testing.FakeModelApi.text;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CancellationSignal;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.FakeModelApi;
import dev.cortex.testing.ScriptedAnswer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What the client makes of answers that are not answers, on both wires. */
class ClientFailuresTest {
  static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  private final FakeModelApi api = FakeModelApi.start();
  private final HttpModelClient client =
      new HttpModelClient(
          HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build(),
          Duration.ofSeconds(30),
          Clock.fixed(NOW, ZoneOffset.UTC));

  @AfterEach
  void stop() {
    api.close();
  }

  ModelProvider provider(ProviderKind kind) {
    return kind == ProviderKind.ANTHROPIC
        ? Chats.anthropic(api.url())
        : Chats.openai(api.openAiUrl());
  }

  ModelFailure failed(ProviderKind kind, ScriptedAnswer answer) {
    api.answers(answer);
    try {
      client.stream(provider(kind), "sk-test", ask("m", "hi"), new Heard(), Cancellation.NONE);
    } catch (ModelFailure failure) {
      return failure;
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("the call did not fail");
  }

  static Stream<Arguments> statuses() {
    return Stream.of(ProviderKind.values())
        .flatMap(
            kind ->
                Stream.of(
                    row(kind, 429, failure(429), ModelFailure.Kind.RATE_LIMITED),
                    row(kind, 529, failure(529), ModelFailure.Kind.OVERLOADED),
                    row(
                        kind,
                        503,
                        failure(503).type("overloaded_error"),
                        ModelFailure.Kind.OVERLOADED),
                    row(kind, 500, failure(500), ModelFailure.Kind.SERVER),
                    row(
                        kind,
                        502,
                        failure(502).body("<html>bad gateway</html>"),
                        ModelFailure.Kind.SERVER),
                    row(kind, 401, failure(401), ModelFailure.Kind.AUTH),
                    row(kind, 403, failure(403), ModelFailure.Kind.AUTH),
                    row(kind, 400, failure(400), ModelFailure.Kind.INVALID_REQUEST),
                    row(kind, 404, failure(404), ModelFailure.Kind.INVALID_REQUEST),
                    row(kind, 408, failure(408), ModelFailure.Kind.TIMEOUT),
                    row(
                        kind,
                        400,
                        failure(400).message("prompt is too long: 210000 tokens > 200000 maximum"),
                        ModelFailure.Kind.CONTEXT_TOO_LONG)));
  }

  @Test
  void stream_contextLengthExceededCode_isContextTooLong() {
    ModelFailure failure =
        failed(
            ProviderKind.OPENAI_COMPATIBLE,
            failure(400)
                .code("context_length_exceeded")
                .message("Please reduce the length of the messages."));

    assertThat(failure.kind()).isEqualTo(ModelFailure.Kind.CONTEXT_TOO_LONG);
    assertThat(failure.getMessage())
        .isEqualTo("the openai API answered HTTP 400: Please reduce the length of the messages.");
  }

  static Arguments row(
      ProviderKind kind, int status, ScriptedAnswer answer, ModelFailure.Kind expected) {
    return Arguments.of(kind, status, answer, expected);
  }

  @ParameterizedTest
  @MethodSource("statuses")
  void stream_errorStatus_isClassified_withTheProvidersMessage(
      ProviderKind kind, int status, ScriptedAnswer answer, ModelFailure.Kind expected) {
    ModelFailure failure = failed(kind, answer);

    assertThat(failure.kind()).isEqualTo(expected);
    assertThat(failure.retryable()).isEqualTo(expected.retryable());
    assertThat(failure.status()).isEqualTo(status);
    assertThat(failure.getMessage())
        .startsWith("the " + provider(kind).name() + " API answered HTTP " + status + ": ");
    assertThat(failure.answer()).isNotNull();
  }

  @Test
  void stream_rateLimited_saysTheProvidersMessage_andReadsRetryAfterInSeconds() {
    ModelFailure failure =
        failed(ProviderKind.ANTHROPIC, failure(429).retryAfter("7").message("slow down"));

    assertThat(failure.getMessage()).isEqualTo("the anthropic API answered HTTP 429: slow down");
    assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(7));
    assertThat(failure.status()).isEqualTo(429);
  }

  @Test
  void stream_retryAfterAsAnHttpDate_isTheTimeUntilThen() {
    ModelFailure failure =
        failed(
            ProviderKind.OPENAI_COMPATIBLE,
            failure(503).retryAfter("Sun, 01 Mar 2026 10:00:45 GMT"));

    assertThat(failure.retryAfter()).isEqualTo(Duration.ofSeconds(45));
  }

  @Test
  void stream_retryAfterMs_winsOverRetryAfter_andAPastDateIsNoWait() {
    ModelFailure millis =
        failed(
            ProviderKind.OPENAI_COMPATIBLE,
            failure(429).header("retry-after-ms", "1500").retryAfter("9"));
    ModelFailure past =
        failed(ProviderKind.ANTHROPIC, failure(529).retryAfter("Sun, 01 Mar 2026 09:00:00 GMT"));
    ModelFailure none = failed(ProviderKind.ANTHROPIC, failure(529));

    assertThat(millis.retryAfter()).isEqualTo(Duration.ofMillis(1500));
    assertThat(past.retryAfter()).isEqualTo(Duration.ZERO);
    assertThat(none.retryAfter()).isNull();
  }

  @Test
  void stream_longProviderMessage_isShortenedTo500Characters() {
    ModelFailure failure = failed(ProviderKind.ANTHROPIC, failure(400).message("x".repeat(5000)));

    String said = failure.getMessage().substring("the anthropic API answered HTTP 400: ".length());
    assertThat(said).hasSize(501).endsWith("…");
  }

  @Test
  void stream_overloadedMidStream_isOverloaded_afterTheTextItHeard() {
    Heard heard = new Heard();
    api.answers(text("Hel", "lo").thenError("overloaded_error", "Overloaded"));

    assertThatThrownBy(
            () ->
                client.stream(
                    provider(ProviderKind.ANTHROPIC),
                    "k",
                    ask("m", "hi"),
                    heard,
                    Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ModelFailure.Kind.OVERLOADED);
              assertThat(f.getMessage())
                  .isEqualTo(
                      "the anthropic API broke off its answer: Overloaded (overloaded_error)");
            });
    assertThat(heard.text).containsExactly("Hel", "lo");
  }

  @Test
  void stream_errorChunkOfAnOpenAiCompatibleServer_isClassifiedByItsType() {
    ModelFailure failure =
        failed(
            ProviderKind.OPENAI_COMPATIBLE,
            text("partial").thenError("server_error", "The server had an error"));

    assertThat(failure.kind()).isEqualTo(ModelFailure.Kind.SERVER);
    assertThat(failure.getMessage()).contains("The server had an error");
  }

  @Test
  void stream_droppedConnectionMidAnswer_isNetwork_onBothWires() {
    for (ProviderKind kind : ProviderKind.values()) {
      ModelFailure failure = failed(kind, text("Once upon").thenDrop());

      assertThat(failure.kind()).as(kind.name()).isEqualTo(ModelFailure.Kind.NETWORK);
      assertThat(failure.retryable()).isTrue();
      assertThat(failure.getMessage()).contains("mid-answer");
    }
  }

  @Test
  void stream_unreachableApi_isNetwork() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    ModelProvider gone =
        new ModelProvider(
            "anthropic", ProviderKind.ANTHROPIC, URI.create("http://127.0.0.1:" + port), "K");

    assertThatThrownBy(
            () -> client.stream(gone, "k", ask("m", "x"), new Heard(), Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ModelFailure.Kind.NETWORK);
              assertThat(f.getMessage()).startsWith("cannot reach the anthropic API: ");
            });
  }

  @Test
  void stream_unparseableAnswers_areBadAnswers() throws Exception {
    api.answers(failure(200).body("this is not JSON"));
    assertThatThrownBy(
            () ->
                client.complete(
                    provider(ProviderKind.ANTHROPIC), "k", ask("m", "x"), Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class, f -> assertThat(f.kind()).isEqualTo(ModelFailure.Kind.BAD_ANSWER));

    api.answers(reply().toolCall("call_1", "read_file", "{\"path\":", "broken"));
    assertThatThrownBy(
            () ->
                client.stream(
                    provider(ProviderKind.OPENAI_COMPATIBLE),
                    "k",
                    ask("m", "x"),
                    new Heard(),
                    Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ModelFailure.Kind.BAD_ANSWER);
              assertThat(f.getMessage()).contains("read_file").contains("not a JSON object");
            });
  }

  @Test
  void stream_redirect_isNotFollowed() {
    ModelFailure failure =
        failed(
            ProviderKind.ANTHROPIC,
            failure(307).header("location", api.url() + "/v1/messages").body(""));

    assertThat(failure.kind()).isEqualTo(ModelFailure.Kind.INVALID_REQUEST);
    assertThat(failure.getMessage()).contains("redirect").contains("not followed");
    assertThat(api.requests()).hasSize(1);
    assertThat(new HttpModelClient().withIdleTimeout(Duration.ofSeconds(1)).idleTimeout())
        .isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void aKey_neverAppearsInAFailureMessageOrALogLine() {
    String key = "sk-ant-api03-secret-value-0123456789";
    PrintStream err = System.err;
    ByteArrayOutputStream logged = new ByteArrayOutputStream();
    System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
    ModelFailure status;
    ModelFailure stream;
    try {
      api.answers(
          failure(401).message("invalid x-api-key: " + key),
          text("a").thenError("authentication_error", "bad key " + key));
      status = call(key);
      stream = call(key);
    } finally {
      System.setErr(err);
    }

    String log = logged.toString(StandardCharsets.UTF_8);
    assertThat(log).contains("anthropic call failed (AUTH)");
    assertThat(log).doesNotContain(key);
    for (ModelFailure failure : new ModelFailure[] {status, stream}) {
      assertThat(failure.getMessage()).doesNotContain(key).contains("[redacted]");
      assertThat(failure.answer()).doesNotContain(key);
    }
  }

  private ModelFailure call(String key) {
    try {
      client.stream(
          provider(ProviderKind.ANTHROPIC), key, ask("m", "x"), new Heard(), Cancellation.NONE);
    } catch (ModelFailure failure) {
      return failure;
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
    throw new AssertionError("the call did not fail");
  }

  @Test
  void stream_cancelledMidAnswer_closesTheConnection_andThrowsInterrupted() throws Exception {
    for (ProviderKind kind : ProviderKind.values()) {
      ScriptedAnswer held = api.answer(text("Hel", "lo").hold().text(" never"));
      CancellationSignal cancel = new CancellationSignal();
      Heard heard = new Heard();
      CompletableFuture<Reply> call =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return client.stream(provider(kind), "k", ask("m", "x"), heard, cancel);
                } catch (Exception e) {
                  throw new java.util.concurrent.CompletionException(e);
                }
              });
      assertThat(held.awaitHeld()).isTrue();

      Eventually.until("the text before the hold is heard", () -> heard.text.size() == 2);

      cancel.cancel();

      assertThatThrownBy(() -> call.get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(InterruptedException.class);
      assertThat(held.awaitClientGone()).as(kind.name()).isTrue();
      assertThat(String.join("", heard.text)).isEqualTo("Hello");
    }
  }

  @Test
  void stream_cancelledBeforeTheAnswerStarts_throwsInterrupted() throws Exception {
    ScriptedAnswer held = api.answer(reply().hold().text("late"));
    CancellationSignal cancel = new CancellationSignal();
    CompletableFuture<Reply> call =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return client.stream(
                    provider(ProviderKind.ANTHROPIC), "k", ask("m", "x"), new Heard(), cancel);
              } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
              }
            });
    assertThat(held.awaitHeld()).isTrue();

    cancel.cancel();

    assertThatThrownBy(() -> call.get(30, TimeUnit.SECONDS))
        .hasCauseInstanceOf(InterruptedException.class);
  }

  @Test
  void stream_silentLongerThanTheIdleTimeout_isATimeout() throws Exception {
    HttpModelClient impatient = client.withIdleTimeout(Duration.ofMillis(300));
    ScriptedAnswer midway = api.answer(text("Hel", "lo").hold());
    ScriptedAnswer before = api.answer(reply().hold().text("x"));

    assertThatThrownBy(
            () ->
                impatient.stream(
                    provider(ProviderKind.ANTHROPIC),
                    "k",
                    ask("m", "x"),
                    new Heard(),
                    Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ModelFailure.Kind.TIMEOUT);
              assertThat(f.getMessage()).isEqualTo("the anthropic API sent nothing for 300 ms");
            });
    assertThatThrownBy(
            () ->
                impatient.complete(
                    provider(ProviderKind.ANTHROPIC), "k", ask("m", "x"), Cancellation.NONE))
        .isInstanceOfSatisfying(
            ModelFailure.class,
            f -> {
              assertThat(f.kind()).isEqualTo(ModelFailure.Kind.TIMEOUT);
              assertThat(f.getMessage())
                  .isEqualTo("the anthropic API did not answer within 300 ms");
            });
    midway.release();
    before.release();
  }

  @Test
  void client_thatFollowsRedirects_isRefused() {
    assertThatThrownBy(
            () ->
                new HttpModelClient(
                    HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL).build(),
                    Duration.ofSeconds(1),
                    Clock.systemUTC()))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
