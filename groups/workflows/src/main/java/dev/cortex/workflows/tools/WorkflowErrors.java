package dev.cortex.workflows.tools;

/** Error codes of the workflows group, beyond the kit's shared ones. */
public final class WorkflowErrors {
  private WorkflowErrors() {}

  /** The manifest does not load: YAML, schema, jq or reference problems (all of them listed). */
  public static final String INVALID_MANIFEST = "INVALID_MANIFEST";

  /** The parameters do not fit the manifest: type, required, enum, min/max, unknown names. */
  public static final String INVALID_PARAMETERS = "INVALID_PARAMETERS";

  /** Something a step needs is missing here: a program, a JDBC driver, an MCP server command. */
  public static final String PREFLIGHT_FAILED = "PREFLIGHT_FAILED";

  /** The run is in a state that does not allow the request (resuming a succeeded run, say). */
  public static final String RUN_STATE = "RUN_STATE";

  /** The human declined the confirmation (a run, or trust in a remote workflow); nothing ran. */
  public static final String CONSENT_DECLINED = "CONSENT_DECLINED";

  /** Nobody answered the confirmation within the wait (45 s unless set; 5 minutes at most). */
  public static final String CONSENT_TIMEOUT = "CONSENT_TIMEOUT";

  /**
   * No channel could ask a human (no elicitation, no native dialog; no terminal and no --yes on the
   * command line); nothing ran, and the message says where a person can run it.
   */
  public static final String CONSENT_UNAVAILABLE = "CONSENT_UNAVAILABLE";
}
