package dev.cortex.mcp.caller;

import dev.cortex.base.Cancellation;

/**
 * Tells a tool call that its client sent {@code notifications/cancelled} for it. The transport sees
 * the request's JSON-RPC id, the tool does not: the transport copies the id of each {@code
 * tools/call} into its {@code _meta} under {@link #META_KEY} (the SDK passes {@code _meta} through
 * to the call), and answers with the cancellation it keeps for that request while it is in flight.
 */
@FunctionalInterface
public interface CancelSignals {
  /** The {@code _meta} key of the request's id. */
  String META_KEY = "dev.cortex/cancel";

  /**
   * What the call {@code requestId} of {@code session} hears of its cancellation; a request not in
   * flight hears nothing.
   *
   * @param session the MCP session the call came in on, as the server names it
   * @param requestId the JSON-RPC id the transport put under {@link #META_KEY}
   */
  Cancellation of(String session, Object requestId);

  /** For a transport that sees no cancel: every call hears nothing. */
  CancelSignals NONE = (session, requestId) -> Cancellation.NONE;
}
