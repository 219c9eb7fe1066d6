package dev.cortex.base;

/** Error codes shared by every capability group. Groups may add codes of their own. */
public final class ErrorCodes {
  private ErrorCodes() {}

  /** The arguments do not match the tool's input schema or its documented limits. */
  public static final String INVALID_ARGUMENT = "INVALID_ARGUMENT";

  /** A referenced record is missing or outside the caller's scope. */
  public static final String INVALID_REFERENCE = "INVALID_REFERENCE";

  /** No tool of that name is served in the selected composition. */
  public static final String UNKNOWN_TOOL = "UNKNOWN_TOOL";

  /** A dependency of the tool (a daemon, a device, a cluster) cannot be reached. */
  public static final String UNAVAILABLE = "UNAVAILABLE";

  /** The caller cancelled the call before it finished; what was done so far stays done. */
  public static final String CANCELLED = "CANCELLED";

  /** Something failed inside Cortex; details are in the server's log, not in the message. */
  public static final String INTERNAL = "INTERNAL";
}
