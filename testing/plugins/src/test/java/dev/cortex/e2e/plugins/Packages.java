package dev.cortex.e2e.plugins;

import dev.cortex.testing.CortexProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/** Pieces of the plugin packages the tests write. */
final class Packages {
  private Packages() {}

  /**
   * Writes {@code bin/serve} into the package at {@code root}: a script that runs a second {@code
   * cortex mcp} (the core group) on its standard streams. With {@code marker}, it first makes the
   * folder its first argument names and a file {@code started} in it.
   */
  static void serveScript(Path root, boolean marker) throws IOException {
    StringBuilder exec = new StringBuilder("exec");
    for (String arg : CortexProcess.command("mcp", "--bundles", "core")) {
      exec.append(" '").append(arg).append("'");
    }
    Path serve = Files.createDirectories(root.resolve("bin")).resolve("serve");
    Files.writeString(
        serve,
        "#!/bin/sh\n"
            + (marker ? "mkdir -p \"$1\" && : > \"$1/started\"\n" : "")
            + "if [ -e \"$0.broken\" ]; then echo 'broken on purpose' >&2; exit 3; fi\n"
            + exec
            + "\n");
    Files.setPosixFilePermissions(serve, PosixFilePermissions.fromString("rwx------"));
  }
}
