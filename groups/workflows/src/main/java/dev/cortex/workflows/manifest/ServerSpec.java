package dev.cortex.workflows.manifest;

import java.util.List;

/**
 * An MCP server the steps of a workflow call: a stdio {@code command} (argv) or an HTTP {@code
 * url}, exactly one of them.
 */
public record ServerSpec(List<String> command, String url) {

  public ServerSpec {
    command = command == null ? null : List.copyOf(command);
    if ((command == null) == (url == null)) {
      throw new IllegalArgumentException("a server needs exactly one of command or url");
    }
    if (command != null && command.isEmpty()) {
      throw new IllegalArgumentException("a server command needs at least the program");
    }
  }

  /** Whether the server is started as a subprocess speaking MCP on stdio. */
  public boolean isStdio() {
    return command != null;
  }
}
