package dev.cortex.workflows.temporal;

import io.temporal.workflow.Workflow;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The interpreter's clock: Temporal's workflow time, the same on every replay. It moves when the
 * workflow wakes up (an activity ended, a timer fired), so step times include scheduling.
 */
final class WorkflowTime extends Clock {
  static final WorkflowTime CLOCK = new WorkflowTime();

  private WorkflowTime() {}

  /** Workflow time in nanoseconds, for durations. */
  static long nanos() {
    return Workflow.currentTimeMillis() * 1_000_000L;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(Workflow.currentTimeMillis());
  }
}
