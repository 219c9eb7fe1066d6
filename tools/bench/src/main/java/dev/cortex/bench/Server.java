package dev.cortex.bench;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A server under test: how to start it and which cheap tool to call on it.
 *
 * @param name a short label for tables
 * @param command the command line that starts the server on stdio
 * @param tool the tool called in the round-trip measurement
 * @param arguments that tool's arguments
 * @param setupMarkers starts of the stderr lines by which the launcher announces one-off set-up (a
 *     rebuild, a start-up cache); a start that shows one measured the set-up, not the server
 */
record Server(
    String name,
    List<String> command,
    String tool,
    Map<String, String> arguments,
    List<String> setupMarkers) {

  /** Cortex as users run it: the launcher, which picks the JDK and the start-up cache. */
  static Server cortex(Path launcher) {
    return new Server(
        "cortex",
        List.of(launcher.toString(), "mcp", "--bundles", "core,evidence"),
        "current_time",
        Map.of("timezone", "UTC"),
        List.of("cortex: building", "cortex: preparing"));
  }

  /** The TypeScript reference server, {@code @modelcontextprotocol/server-everything}. */
  static Server reference(String node, Path entry) {
    return new Server(
        "reference",
        List.of(node, entry.toString(), "stdio"),
        "echo",
        Map.of("message", "hi"),
        List.of());
  }

  /** The first stderr line that announces one-off set-up, if any. */
  Optional<String> setupLine(String stderr) {
    return stderr.lines().filter(l -> setupMarkers.stream().anyMatch(l::startsWith)).findFirst();
  }

  /** The command as one shell-like line, for people. */
  String commandLine() {
    return quote(command);
  }

  /** The call as {@code tool {json arguments}}, for people. */
  String callLine() {
    return tool
        + " "
        + arguments.entrySet().stream()
            .map(e -> "\"" + e.getKey() + "\":\"" + e.getValue() + "\"")
            .collect(Collectors.joining(",", "{", "}"));
  }

  static String quote(List<String> words) {
    return words.stream()
        .map(w -> w.isEmpty() || w.matches(".*[\\s'\"$].*") ? "'" + w + "'" : w)
        .collect(Collectors.joining(" "));
  }
}
