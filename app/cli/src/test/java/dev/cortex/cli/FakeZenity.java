package dev.cortex.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A real {@code zenity} stand-in on PATH: a shell script that writes its arguments to {@code args}
 * beside it and then runs a body (exit 0 approves, exit 1 declines). With a display variable set,
 * the server sees a desktop where a native dialog can be shown.
 */
final class FakeZenity {
  private FakeZenity() {}

  static final String APPROVE = "exit 0";
  static final String DECLINE = "exit 1";

  /** {@code env} with a zenity running {@code body} first on PATH, and a display. */
  static Map<String, String> env(Map<String, String> env, Path dir, String body)
      throws IOException {
    Path bin = Files.createDirectories(dir.resolve("fake-bin"));
    Path script = bin.resolve("zenity");
    Files.writeString(
        script,
        "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done >> \""
            + args(dir)
            + "\"\n"
            + body
            + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Map<String, String> with = headless(env);
    with.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    with.put("DISPLAY", ":99");
    return with;
  }

  /** {@code env} without a display: no native dialog can be shown. */
  static Map<String, String> headless(Map<String, String> env) {
    Map<String, String> without = new HashMap<>(env);
    without.remove("DISPLAY");
    without.remove("WAYLAND_DISPLAY");
    return without;
  }

  /** Where the script records its arguments. */
  static Path args(Path dir) {
    return dir.resolve("fake-bin").resolve("args");
  }

  /** The arguments zenity got, one per line, every call appended; empty if it never ran. */
  static List<String> calls(Path dir) throws IOException {
    Path args = args(dir);
    return Files.exists(args) ? Files.readAllLines(args) : List.of();
  }
}
