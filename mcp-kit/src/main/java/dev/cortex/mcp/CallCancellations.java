package dev.cortex.mcp;

/**
 * Finds the cancellation of an incoming tool call. A transport that sees {@code
 * notifications/cancelled} marks each {@code tools/call} it passes on with a marker in {@code
 * _meta} under {@link #META_KEY} (overwriting whatever a client put there) and trips the marker's
 * signal when the client cancels the request.
 */
@FunctionalInterface
public interface CallCancellations {
  /** The {@code _meta} key of the marker. */
  String META_KEY = "dev.cortex/call";

  /** The cancellation of the call that carries {@code marker}; never null. */
  Cancellation of(String marker);

  /** For transports that cannot cancel a call. */
  CallCancellations NONE = marker -> Cancellation.NONE;
}
