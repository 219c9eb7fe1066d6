package dev.cortex.models;

import dev.cortex.base.Cancellation;
import java.io.ByteArrayOutputStream;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One HTTP exchange with a model API, read on the caller's thread as it arrives: the status and
 * headers, then the body line by line (a stream) or whole. Between two pieces of the body at most
 * the idle timeout passes; a tripped cancellation or an interrupt closes the connection and the
 * reader throws {@link InterruptedException}.
 */
final class Exchange implements AutoCloseable {
  /** The most bytes of a body read whole; an error body is cut there. */
  static final int BODY_LIMIT = 32 * 1024 * 1024;

  /** How long the end of a body may take to follow a complete answer. */
  private static final Duration FINISH = Duration.ofMillis(50);

  private final String api;
  private final Duration idle;
  private final Chunks chunks;
  private final HttpResponse<Void> response;
  private final Cancellation.Registration registration;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();
  private ByteBuffer current = ByteBuffer.allocate(0);
  private boolean ended;
  private boolean lastWasCarriageReturn;

  private Exchange(
      String api,
      Duration idle,
      Chunks chunks,
      HttpResponse<Void> response,
      Cancellation.Registration registration) {
    this.api = api;
    this.idle = idle;
    this.chunks = chunks;
    this.response = response;
    this.registration = registration;
  }

  /**
   * Sends {@code request} and waits for the answer's status and headers.
   *
   * @param api who answers, for messages ("the anthropic API")
   * @throws ModelFailure TIMEOUT when no answer comes in time, NETWORK when the API cannot be
   *     reached
   */
  static Exchange open(
      HttpClient http, HttpRequest request, String api, Duration idle, Cancellation cancellation)
      throws ModelFailure, InterruptedException {
    if (cancellation.isCancelled()) {
      throw new InterruptedException("the call was cancelled");
    }
    Chunks chunks = new Chunks();
    CompletableFuture<HttpResponse<Void>> future =
        http.sendAsync(
            request,
            info -> {
              chunks.answered = true;
              return chunks;
            });
    Cancellation.Registration registration =
        cancellation.onCancel(
            () -> {
              future.cancel(true);
              chunks.abort();
            });
    try {
      HttpResponse<Void> response = future.get();
      return new Exchange(api, idle, chunks, response, registration);
    } catch (InterruptedException | CancellationException e) {
      registration.close();
      future.cancel(true);
      chunks.abort();
      throw new InterruptedException("the call was cancelled");
    } catch (ExecutionException e) {
      registration.close();
      chunks.abort();
      if (cancellation.isCancelled()) {
        throw new InterruptedException("the call was cancelled");
      }
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (chunks.answered) {
        throw brokenOff(api, cause);
      }
      throw unreachable(api, idle, cause);
    }
  }

  private static ModelFailure unreachable(String api, Duration idle, Throwable cause) {
    if (cause instanceof HttpConnectTimeoutException) {
      return new ModelFailure(
          ModelFailure.Kind.NETWORK,
          0,
          null,
          "cannot reach the " + api + " API: no connection in time");
    }
    if (cause instanceof HttpTimeoutException) {
      return new ModelFailure(
          ModelFailure.Kind.TIMEOUT,
          0,
          null,
          "the " + api + " API did not answer within " + describe(idle));
    }
    String detail =
        cause instanceof ConnectException ? "connection refused" : Failures.describe(cause);
    return new ModelFailure(
        ModelFailure.Kind.NETWORK, 0, null, "cannot reach the " + api + " API: " + detail);
  }

  private static ModelFailure brokenOff(String api, Throwable cause) {
    return new ModelFailure(
        ModelFailure.Kind.NETWORK,
        0,
        null,
        "the connection to the " + api + " API broke mid-answer: " + Failures.describe(cause));
  }

  /** A duration as people write it: {@code 300 ms}, {@code 30 s}, {@code 5 min}. */
  static String describe(Duration duration) {
    long millis = duration.toMillis();
    if (millis < 1000 || millis % 1000 != 0) {
      return millis + " ms";
    }
    long seconds = millis / 1000;
    return seconds % 60 == 0 && seconds >= 60 ? seconds / 60 + " min" : seconds + " s";
  }

  int status() {
    return response.statusCode();
  }

  HttpHeaders headers() {
    return response.headers();
  }

  /**
   * The next line of the body without its end (LF, CRLF or CR), or null at the end of the body.
   *
   * @throws ModelFailure TIMEOUT after the idle timeout without a byte, NETWORK when the connection
   *     broke
   */
  String readLine() throws ModelFailure, InterruptedException {
    while (true) {
      while (current.hasRemaining()) {
        byte b = current.get();
        if (b == '\n' && lastWasCarriageReturn) {
          lastWasCarriageReturn = false;
          continue;
        }
        lastWasCarriageReturn = b == '\r';
        if (b == '\n' || b == '\r') {
          String text = line.toString(StandardCharsets.UTF_8);
          line.reset();
          return text;
        }
        if (line.size() >= BODY_LIMIT) {
          throw Failures.badAnswer(api, "sent a line longer than " + BODY_LIMIT + " bytes");
        }
        line.write(b);
      }
      if (!next()) {
        if (line.size() > 0) {
          String text = line.toString(StandardCharsets.UTF_8);
          line.reset();
          return text;
        }
        return null;
      }
    }
  }

  /** The whole body, up to {@code limit} bytes (the rest is not read). */
  String readAll(int limit) throws ModelFailure, InterruptedException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    while (body.size() < limit) {
      if (current.hasRemaining()) {
        int n = Math.min(current.remaining(), limit - body.size());
        byte[] bytes = new byte[n];
        current.get(bytes);
        body.write(bytes, 0, n);
      } else if (!next()) {
        break;
      }
    }
    return body.toString(StandardCharsets.UTF_8);
  }

  /**
   * Reads the rest of the body when it comes at once (its end, after a complete answer), so that
   * the connection may serve the next call instead of being closed.
   */
  void finish() throws InterruptedException {
    long deadline = System.nanoTime() + FINISH.toNanos();
    while (!ended) {
      long left = deadline - System.nanoTime();
      Object item = left <= 0 ? null : chunks.take(Duration.ofNanos(left));
      if (item == null) {
        return;
      }
      if (!(item instanceof ByteBuffer)) {
        ended = true;
      }
    }
  }

  /** Takes the next piece of the body; false at its end. */
  private boolean next() throws ModelFailure, InterruptedException {
    if (ended) {
      return false;
    }
    Object item = chunks.take(idle);
    if (item == null) {
      chunks.abort();
      throw new ModelFailure(
          ModelFailure.Kind.TIMEOUT,
          0,
          null,
          "the " + api + " API sent nothing for " + describe(idle));
    }
    if (item == Chunks.END) {
      ended = true;
      return false;
    }
    if (item == Chunks.ABORTED) {
      ended = true;
      throw new InterruptedException("the call was cancelled");
    }
    if (item instanceof Throwable failure) {
      ended = true;
      throw brokenOff(api, failure);
    }
    current = (ByteBuffer) item;
    return true;
  }

  /** Ends the exchange: the connection is closed if the body was not read to its end. */
  @Override
  public void close() {
    registration.close();
    if (!ended) {
      chunks.abort();
    }
  }

  /**
   * The body as it arrives, one buffer requested at a time, handed over through a queue: the reader
   * waits on the queue with a timeout, and aborting cancels the subscription (closing the
   * connection) and wakes the reader.
   */
  private static final class Chunks implements HttpResponse.BodySubscriber<Void> {
    static final Object END = new Object();
    static final Object ABORTED = new Object();

    private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();

    /** Whether the status and headers came (the body handler was asked for this subscriber). */
    volatile boolean answered;

    private Flow.Subscription subscription;
    private boolean aborted;
    private int pending;

    @Override
    public synchronized void onSubscribe(Flow.Subscription subscription) {
      if (aborted) {
        subscription.cancel();
        return;
      }
      this.subscription = subscription;
      subscription.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      synchronized (this) {
        pending = items.size();
      }
      if (items.isEmpty()) {
        requestMore();
      }
      queue.addAll(items);
    }

    @Override
    public void onError(Throwable throwable) {
      queue.add(throwable);
    }

    @Override
    public void onComplete() {
      queue.add(END);
    }

    @Override
    public CompletionStage<Void> getBody() {
      return CompletableFuture.completedFuture(null);
    }

    /** The next buffer, {@link #END}, {@link #ABORTED} or a failure; null after {@code idle}. */
    Object take(Duration idle) throws InterruptedException {
      Object item;
      try {
        item = queue.poll(idle.toNanos(), TimeUnit.NANOSECONDS);
      } catch (InterruptedException e) {
        abort();
        throw e;
      }
      if (item instanceof ByteBuffer) {
        boolean more;
        synchronized (this) {
          more = --pending <= 0;
        }
        if (more) {
          requestMore();
        }
      }
      return item;
    }

    private synchronized void requestMore() {
      if (subscription != null && !aborted) {
        subscription.request(1);
      }
    }

    synchronized void abort() {
      if (aborted) {
        return;
      }
      aborted = true;
      if (subscription != null) {
        subscription.cancel();
      }
      queue.clear();
      queue.add(ABORTED);
    }
  }
}
