package dev.cortex.workflows;

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
}
