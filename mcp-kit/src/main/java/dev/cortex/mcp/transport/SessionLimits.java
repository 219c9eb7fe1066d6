package dev.cortex.mcp.transport;

import dev.cortex.base.StartupException;
import java.time.Duration;
import java.util.Map;

/**
 * How long a streamable-HTTP session may stay unused and how many may be open, from {@code
 * CORTEX_MCP_HTTP_SESSION_IDLE_SECONDS} (default 1800) and {@code CORTEX_MCP_HTTP_MAX_SESSIONS}
 * (default 256).
 */
public record SessionLimits(Duration idle, int maxSessions) {
  public static final SessionLimits DEFAULTS = new SessionLimits(Duration.ofMinutes(30), 256);

  static final String IDLE_VARIABLE = "CORTEX_MCP_HTTP_SESSION_IDLE_SECONDS";
  static final String MAX_VARIABLE = "CORTEX_MCP_HTTP_MAX_SESSIONS";

  public SessionLimits {
    if (idle.isNegative() || idle.isZero()) {
      throw new IllegalArgumentException("the idle time of sessions must be positive");
    }
    if (maxSessions < 1) {
      throw new IllegalArgumentException("at least one session must be allowed");
    }
  }

  /**
   * The limits the environment sets.
   *
   * @throws StartupException naming the variable when a value is not a whole number in range
   */
  public static SessionLimits fromEnvironment(Map<String, String> env) {
    long idle = number(env, IDLE_VARIABLE, DEFAULTS.idle().toSeconds(), 1, 7 * 24 * 3600);
    long max = number(env, MAX_VARIABLE, DEFAULTS.maxSessions(), 1, 100_000);
    return new SessionLimits(Duration.ofSeconds(idle), (int) max);
  }

  private static long number(
      Map<String, String> env, String variable, long fallback, long min, long max) {
    String text = env.get(variable);
    if (text == null || text.isBlank()) {
      return fallback;
    }
    try {
      long value = Long.parseLong(text.strip());
      if (value >= min && value <= max) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new StartupException(
        variable + " must be a whole number from " + min + " to " + max + ", got '" + text + "'");
  }
}
