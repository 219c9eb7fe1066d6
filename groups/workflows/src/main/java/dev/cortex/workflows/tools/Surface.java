package dev.cortex.workflows.tools;

/**
 * Where an answer is read, so that what it tells the reader to do next names a thing they can do
 * there: the MCP tools' calls, or the command line's verbs.
 */
public enum Surface {
  /** An agent calling tools: notes name the tool call. */
  MCP,
  /** A person at a terminal: notes name the {@code cortex} command. */
  CLI;

  /** How to fetch one step's whole output. */
  String fetchOutput(String runId, String stepId) {
    return this == MCP
        ? "runs_show " + TraceView.fetchCall(runId, stepId)
        : "cortex runs show " + runId + " --activity " + stepId;
  }

  /** How to follow a run until it ends. */
  public String follow(String runId) {
    return this == MCP ? "runs_show {\"run_id\":\"" + runId + "\"}" : "cortex runs show " + runId;
  }

  /** How to list runs. */
  public String listRuns() {
    return this == MCP ? "runs_list" : "cortex runs list";
  }
}
