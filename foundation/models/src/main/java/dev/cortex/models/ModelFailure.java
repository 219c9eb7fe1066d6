package dev.cortex.models;

import java.time.Duration;
import java.util.Objects;

/**
 * A model call that failed, classified so that callers can decide whether to retry, fall back to
 * another model or give up. Messages are sentences for a person: the provider's own error message
 * (shortened), never a key, a stack trace or a request body.
 */
public final class ModelFailure extends Exception {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Kind {
    /** HTTP 429: too many requests or tokens for the account. */
    RATE_LIMITED(true),
    /** Anthropic's 529 and other "overloaded" answers. */
    OVERLOADED(true),
    /** HTTP 5xx other than overloaded. */
    SERVER(true),
    /** No answer in time. */
    TIMEOUT(true),
    /** The API could not be reached, or the connection broke mid-answer. */
    NETWORK(true),
    /** HTTP 401 or 403: the key is missing, wrong or not allowed. */
    AUTH(false),
    /** The request was refused as malformed (HTTP 400, 404, 422). */
    INVALID_REQUEST(false),
    /** The conversation does not fit the model's context window. */
    CONTEXT_TOO_LONG(false),
    /** The API answered with something that is not an answer. */
    BAD_ANSWER(true),
    /** No API key is configured where the provider needs one. */
    MISSING_KEY(false);

    private final boolean retryable;

    Kind(boolean retryable) {
      this.retryable = retryable;
    }

    public boolean retryable() {
      return retryable;
    }
  }

  private final Kind kind;
  private final int status;
  private final transient Duration retryAfter;
  private final String answer;

  /**
   * @param status the HTTP status, or 0 when there was none
   * @param retryAfter how long the provider asked to wait ({@code retry-after}), or null
   */
  public ModelFailure(Kind kind, int status, Duration retryAfter, String message) {
    this(kind, status, retryAfter, message, null);
  }

  /**
   * @param answer what the API answered instead (its error body, cut to 16 KB), or null
   */
  public ModelFailure(Kind kind, int status, Duration retryAfter, String message, String answer) {
    super(message, null, false, false);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.status = status;
    this.retryAfter = retryAfter;
    this.answer = answer;
  }

  public Kind kind() {
    return kind;
  }

  /** The HTTP status, or 0 when there was none. */
  public int status() {
    return status;
  }

  /** How long the provider asked to wait before the next attempt, or null. */
  public Duration retryAfter() {
    return retryAfter;
  }

  public boolean retryable() {
    return kind.retryable();
  }

  /**
   * What the API answered instead of an answer (its error body as it came, cut to 16 KB, without
   * the key), for callers that show it; null when there was no such answer.
   */
  public String answer() {
    return answer;
  }
}
