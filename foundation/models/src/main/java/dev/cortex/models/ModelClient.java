package dev.cortex.models;

import dev.cortex.base.Cancellation;

/**
 * Calls a model through its provider's API. One implementation speaks every provider kind; tests
 * point providers' base URLs at local servers that speak the same APIs.
 */
public interface ModelClient {
  /**
   * Sends {@code request} to {@code model}'s provider and streams the answer.
   *
   * @param key the API key, or null for a provider that needs none (a local server)
   * @param listener hears text and thinking as they arrive
   * @param cancellation ends the call (its connection) when tripped; the call then throws {@link
   *     InterruptedException}
   * @throws ModelFailure classified; one attempt, no retry (see {@link ModelCalls})
   */
  Reply stream(
      ModelProvider provider,
      String key,
      ChatRequest request,
      StreamListener listener,
      Cancellation cancellation)
      throws ModelFailure, InterruptedException;
}
