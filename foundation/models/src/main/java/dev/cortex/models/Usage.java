package dev.cortex.models;

/** The tokens one model call used, by kind, as the provider reported them. */
public record Usage(long input, long output, long cacheRead, long cacheWrite) {
  public static final Usage NONE = new Usage(0, 0, 0, 0);

  /** Both usages together. */
  public Usage plus(Usage other) {
    return new Usage(
        input + other.input,
        output + other.output,
        cacheRead + other.cacheRead,
        cacheWrite + other.cacheWrite);
  }
}
