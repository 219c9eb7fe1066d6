package dev.cortex.workflows.consent;

import java.util.Objects;

/**
 * How a confirmation ended: the outcome, the channel that gave it (for {@link Outcome#NO_CHANNEL},
 * the one that could not ask, or null when none could) and, when no channel could ask, why; when
 * nobody answered, how long Cortex waited.
 */
public record Decision(Outcome outcome, String channel, String detail) {
  /** The outcomes of a confirmation. Only {@link #APPROVED} lets anything happen. */
  public enum Outcome {
    APPROVED,
    DECLINED,
    /** Nobody answered in time. */
    TIMED_OUT,
    /** No channel could put the question to a human. */
    NO_CHANNEL
  }

  public Decision {
    Objects.requireNonNull(outcome, "outcome");
  }

  public static Decision approved(String channel) {
    return new Decision(Outcome.APPROVED, channel, null);
  }

  public static Decision declined(String channel) {
    return new Decision(Outcome.DECLINED, channel, null);
  }

  /** Nobody answered within {@code waited}, which the detail gives in words (e.g. "45 s"). */
  public static Decision timedOut(java.time.Duration waited) {
    return new Decision(Outcome.TIMED_OUT, null, seconds(waited));
  }

  private static String seconds(java.time.Duration waited) {
    long millis = waited.toMillis();
    return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
  }

  public static Decision noChannel(String why) {
    return new Decision(Outcome.NO_CHANNEL, null, why);
  }

  public boolean approved() {
    return outcome == Outcome.APPROVED;
  }
}
