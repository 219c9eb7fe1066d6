package dev.cortex.core;

import dev.cortex.mcp.CapabilityGroup;
import dev.cortex.mcp.GroupDescriptor;
import java.util.List;

/**
 * The {@code core} group: remote machine operations, the clock and subagent delegation. Loaded by
 * every session with a non-empty composition, subagents included.
 */
public final class CoreGroup {
  public static final String NAME = "core";
  public static final String SERVER_KEY = "cortex-core";

  public static final GroupDescriptor DESCRIPTOR =
      new GroupDescriptor(
          NAME,
          SERVER_KEY,
          "Remote machines, the clock, and subagent delegation.",
          "mcp-config-core.json");

  private CoreGroup() {}

  public static CapabilityGroup create() {
    return DESCRIPTOR.group(List.of(CurrentTime.spec()));
  }
}
