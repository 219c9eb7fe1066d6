package dev.cortex.cli.mcp;

import dev.cortex.cli.Io;
import dev.cortex.mcp.compose.ToolChoice;
import picocli.CommandLine.Option;

/** The options that choose tools among the selected groups' ones: {@code --tools} and friends. */
final class ToolChoiceOptions {
  @Option(
      names = "--read-only",
      description =
          "Serve only the tools annotated read-only (they change nothing, here or on a device).")
  boolean readOnly;

  @Option(
      names = "--tools",
      paramLabel = "TOOLS",
      description =
          "Serve only these tools (comma list or JSON array); default: CORTEX_MCP_TOOL_ALLOWLIST,"
              + " else every tool of the groups.")
  String tools;

  @Option(
      names = "--exclude-tools",
      paramLabel = "TOOLS",
      description = "Leave these tools out (comma list or JSON array).")
  String excludeTools;

  /** The choice these options and the environment make. */
  ToolChoice choice(Io io) {
    return ToolChoice.of(readOnly, tools, io.env("CORTEX_MCP_TOOL_ALLOWLIST"), excludeTools);
  }
}
