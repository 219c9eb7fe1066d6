package dev.cortex.server.sessions;

import java.util.List;

/**
 * Whether a session's MCP server can start with a tool allowlist: the server refuses one that names
 * a tool its groups do not serve, so a session is refused it up front instead of running without
 * tools.
 */
@FunctionalInterface
public interface AllowlistCheck {
  /** Accepts every allowlist (for servers that have no groups to ask). */
  AllowlistCheck NONE = (groups, allowlist) -> null;

  /** Why {@code groups} cannot serve {@code allowlist}, in a sentence; null when they can. */
  String refusal(List<String> groups, List<String> allowlist);

  /**
   * The tools {@code groups} serve, in order (what a subagent's allowlist is cut from); null when
   * this check cannot tell.
   */
  default List<String> tools(List<String> groups) {
    return null;
  }
}
