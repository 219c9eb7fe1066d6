package dev.cortex.models;

/** Placeholder: retries with backoff and the fallback chain over a {@link ModelClient}. */
public final class ModelCalls {
  private ModelCalls() {}
}
