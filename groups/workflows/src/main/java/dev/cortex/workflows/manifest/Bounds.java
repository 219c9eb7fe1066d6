package dev.cortex.workflows.manifest;

/** Renders bounds without a trailing ".0" for whole numbers. */
final class Bounds {
  private Bounds() {}

  static String format(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15
        ? Long.toString((long) value)
        : Double.toString(value);
  }
}
