package dev.cortex.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether standard input is a terminal, i.e. a person started the server by hand. */
final class Terminal {
  private Terminal() {}

  static boolean stdinIsTerminal() {
    Path fd0 = Path.of("/proc/self/fd/0");
    if (Files.exists(fd0)) {
      try {
        String target = Files.readSymbolicLink(fd0).toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
      } catch (IOException | UnsupportedOperationException e) {
        return false;
      }
    }
    return System.console() != null;
  }
}
