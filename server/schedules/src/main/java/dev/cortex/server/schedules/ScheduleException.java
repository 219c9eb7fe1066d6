package dev.cortex.server.schedules;

import dev.cortex.base.CodedException;

/** A schedule that cannot be made or found; its message is for the person or agent who asked. */
public final class ScheduleException extends CodedException {
  private static final long serialVersionUID = 1L;

  public static final String INVALID_ARGUMENT = "INVALID_ARGUMENT";
  public static final String NOT_FOUND = "NOT_FOUND";
  public static final String LIMIT = "LIMIT_REACHED";

  public ScheduleException(String code, String message) {
    super(code, message);
  }

  static ScheduleException notFound(String id) {
    return new ScheduleException(
        NOT_FOUND, "No schedule '" + id + "' (cortex schedule list shows them).");
  }
}
