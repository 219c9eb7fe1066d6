package dev.cortex.server.waitpoints;

/** Pieces of the sentences waitpoints answer with. */
final class Phrases {
  private Phrases() {}

  /** How an ended waitpoint ended, and when: "resolved at …", "been cancelled at …". */
  static String ended(Waitpoint w) {
    String when = w.endedAt() == null ? "" : " at " + w.endedAt();
    return switch (w.state()) {
      case RESOLVED -> "resolved" + when;
      case EXPIRED -> "expired" + when;
      case CANCELLED -> "been cancelled" + when;
      default -> "ended";
    };
  }

  /** A value given by the caller, cut to 40 characters for a message. */
  static String clip(String value) {
    if (value == null) {
      return "";
    }
    return value.length() > 40 ? value.substring(0, 40) + "…" : value;
  }

  /** Hours as given: {@code 2}, {@code 0.5}. */
  static String hours(double hours) {
    return hours == Math.rint(hours) ? Long.toString((long) hours) : Double.toString(hours);
  }
}
