package dev.cortex.core;

import dev.cortex.mcp.CapabilityGroup;
import java.util.List;

/**
 * The {@code core} group: remote machine operations, the clock and subagent delegation. Loaded by
 * every session with a non-empty composition, subagents included.
 */
public final class CoreGroup {
  public static final String NAME = "core";
  public static final String SERVER_KEY = "cortex-core";

  private CoreGroup() {}

  public static CapabilityGroup create() {
    return CapabilityGroup.ofTools(
        NAME,
        SERVER_KEY,
        "Remote machines, the clock, and subagent delegation.",
        List.of(CurrentTime.spec()));
  }
}
