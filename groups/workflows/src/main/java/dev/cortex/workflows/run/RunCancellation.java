package dev.cortex.workflows.run;

import java.util.Objects;

/**
 * Who stopped a run, when, and why: kept in the run's trace. {@code by} says who asked in words a
 * person reads ({@code "person at the terminal (Ctrl-C)"}, {@code "agent through runs_cancel"});
 * {@code at} is an ISO-8601 instant.
 */
public record RunCancellation(String by, String at, String reason) {
  public RunCancellation {
    Objects.requireNonNull(by, "by");
    Objects.requireNonNull(at, "at");
  }

  /** The sentence a trace's error carries: who cancelled, when, and why if given. */
  public String describe() {
    return "cancelled by "
        + by
        + " at "
        + at
        + (reason == null || reason.isBlank() ? "" : ": " + reason);
  }
}
