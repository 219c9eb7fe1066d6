package dev.cortex.server.client;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends one pending webhook request early, on the caller's cancel or when its time is up, and turns
 * how it ended into the error the caller gets: cancelled, timed out, or the server not reachable.
 */
final class RequestStopper implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(RequestStopper.class);

  private final CompletableFuture<HttpResponse<InputStream>> pending;
  private final String host;
  private final int port;
  private final Duration limit;
  private volatile InputStream body;
  private volatile String why;

  /**
   * @param limit how long the request was given, for the message when it runs out
   */
  RequestStopper(
      CompletableFuture<HttpResponse<InputStream>> pending, String host, int port, Duration limit) {
    this.pending = pending;
    this.host = host;
    this.port = port;
    this.limit = limit;
  }

  /** The answer's body, closed at once when the request was stopped already. */
  void body(InputStream in) {
    this.body = in;
    if (why != null) {
      close();
    }
  }

  void cancel() {
    stop("cancelled");
  }

  void expire() {
    stop("expired");
  }

  private void stop(String reason) {
    if (why == null) {
      why = reason;
    }
    pending.cancel(true);
    close();
  }

  /** The response, once its headers have come. */
  HttpResponse<InputStream> await() {
    try {
      return pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CodedException(
          ErrorCodes.UNAVAILABLE, "Interrupted while waiting for the agent server.");
    } catch (CancellationException e) {
      rethrowIfStopped(false);
      throw new CodedException(
          ErrorCodes.UNAVAILABLE, "The request to the agent server was cancelled.");
    } catch (ExecutionException e) {
      rethrowIfStopped(false);
      throw unreachable(e.getCause());
    }
  }

  private CodedException unreachable(Throwable cause) {
    if (cause instanceof ConnectException
        || cause instanceof ClosedChannelException
        || cause != null && cause.getCause() instanceof ConnectException) {
      return new CodedException(
          ErrorCodes.UNAVAILABLE,
          "The Cortex agent server is not running: nothing answers on "
              + host
              + ":"
              + port
              + ". Start it with 'cortex server' (or 'cortex server --detach').");
    }
    if (cause instanceof HttpTimeoutException) {
      rethrowIfStopped(false);
    }
    log.debug("webhook request failed", cause);
    return new CodedException(
        ErrorCodes.UNAVAILABLE,
        "The agent server on "
            + host
            + ":"
            + port
            + " could not be reached: "
            + (cause == null ? "unknown error" : cause.getClass().getSimpleName())
            + ".");
  }

  /**
   * Throws the caller's error when the request was stopped.
   *
   * @param sayLimit whether a timeout's message names how long the request was given
   */
  void rethrowIfStopped(boolean sayLimit) {
    if ("cancelled".equals(why)) {
      throw new CodedException(ErrorCodes.CANCELLED, "The call was cancelled by the client.");
    }
    if ("expired".equals(why)) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "The agent server did not answer in time"
              + (sayLimit ? " (" + seconds(limit) + " s)" : "")
              + "; the request may still be running there.");
    }
  }

  /**
   * Whole seconds, rounded up: a limit read off a clock a moment after it was set says 60, not 59.
   */
  private static long seconds(Duration limit) {
    return (limit.toMillis() + 999) / 1000;
  }

  @Override
  public void close() {
    InputStream in = body;
    if (in != null) {
      try {
        in.close();
      } catch (IOException e) {
        // already closed
      }
    }
  }
}
