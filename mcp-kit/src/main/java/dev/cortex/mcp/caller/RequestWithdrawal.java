package dev.cortex.mcp.caller;

/**
 * Withdraws a request the server sent to the client, by telling the client {@code
 * notifications/cancelled} with the request's JSON-RPC id. The id is chosen deep in the SDK, so the
 * request carries a marker in its {@code _meta} under {@link #META_KEY}, and a transport that sees
 * the outgoing message remembers which id went with which marker.
 */
@FunctionalInterface
public interface RequestWithdrawal {
  /** The {@code _meta} key of the marker. */
  String META_KEY = "dev.cortex/request";

  /** Withdraws the request that carried {@code marker}, if it is still awaiting its answer. */
  void withdraw(String marker, String reason);

  /** For transports that cannot name the request: the client is not told. */
  RequestWithdrawal NONE = (marker, reason) -> {};
}
