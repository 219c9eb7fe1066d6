package dev.cortex.mcp.caller;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Who a tool call runs for: the agent session's context as the agent server passes it to the MCP
 * server it starts (environment variables such as {@code CORTEX_SESSION_ID} and {@code
 * CORTEX_PROJECT}). Every part may be absent: a person may run {@code cortex mcp} by hand.
 *
 * @param sessionId {@code CORTEX_SESSION_ID}
 * @param project {@code CORTEX_PROJECT}
 * @param backend {@code CORTEX_BACKEND}, e.g. {@code claude}
 * @param model {@code CORTEX_MODEL}
 * @param provider {@code CORTEX_PROVIDER}
 * @param thinking {@code CORTEX_THINKING}
 * @param mode {@code CORTEX_MODE}
 * @param scheduleTaskId {@code CORTEX_SCHEDULE_TASK_ID}, for runs a schedule started
 * @param callbackSource {@code CORTEX_CALLBACK_SOURCE}, for runs a callback started
 * @param slackChannel {@code SLACK_CHANNEL}
 * @param feishuChannel {@code FEISHU_CHANNEL}
 */
public record SessionIdentity(
    String sessionId,
    String project,
    String backend,
    String model,
    String provider,
    String thinking,
    String mode,
    String scheduleTaskId,
    String callbackSource,
    String slackChannel,
    String feishuChannel) {

  /** No session: a server started by hand. */
  public static final SessionIdentity NONE =
      new SessionIdentity(null, null, null, null, null, null, null, null, null, null, null);

  /** The variables that carry an identity, each with the part it sets. */
  public static final Map<String, String> VARIABLES = variables();

  private static Map<String, String> variables() {
    Map<String, String> names = new LinkedHashMap<>();
    names.put("CORTEX_SESSION_ID", "session_id");
    names.put("CORTEX_PROJECT", "project");
    names.put("CORTEX_BACKEND", "backend");
    names.put("CORTEX_MODEL", "model");
    names.put("CORTEX_PROVIDER", "provider");
    names.put("CORTEX_THINKING", "thinking");
    names.put("CORTEX_MODE", "mode");
    names.put("CORTEX_SCHEDULE_TASK_ID", "schedule_task_id");
    names.put("CORTEX_CALLBACK_SOURCE", "callback_source");
    names.put("SLACK_CHANNEL", "slack_channel");
    names.put("FEISHU_CHANNEL", "feishu_channel");
    return Map.copyOf(names);
  }

  /** The identity in {@code env}; blank values count as absent. */
  public static SessionIdentity fromEnvironment(Map<String, String> env) {
    return new SessionIdentity(
        value(env, "CORTEX_SESSION_ID"),
        value(env, "CORTEX_PROJECT"),
        value(env, "CORTEX_BACKEND"),
        value(env, "CORTEX_MODEL"),
        value(env, "CORTEX_PROVIDER"),
        value(env, "CORTEX_THINKING"),
        value(env, "CORTEX_MODE"),
        value(env, "CORTEX_SCHEDULE_TASK_ID"),
        value(env, "CORTEX_CALLBACK_SOURCE"),
        value(env, "SLACK_CHANNEL"),
        value(env, "FEISHU_CHANNEL"));
  }

  private static String value(Map<String, String> env, String name) {
    String value = env.get(name);
    return value == null || value.isBlank() ? null : value.strip();
  }

  /** Whether the call belongs to an agent-server session. */
  public boolean known() {
    return sessionId != null;
  }
}
