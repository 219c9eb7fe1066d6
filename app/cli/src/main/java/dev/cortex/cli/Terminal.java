package dev.cortex.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether standard streams are terminals, i.e. a person is watching. */
public final class Terminal {
  private Terminal() {}

  /** Whether standard input is a terminal: a person started the server by hand. */
  public static boolean stdinIsTerminal() {
    return isTerminal(0);
  }

  /** Whether standard error is a terminal: live progress can be drawn there. */
  public static boolean stderrIsTerminal() {
    return isTerminal(2);
  }

  /**
   * Shows {@code message} on standard error and asks {@code question} {@code [y/N]}: whether the
   * person answered yes. The caller has made sure a person is there to answer.
   */
  public static boolean confirm(Io io, String message, String question) {
    io.err().println();
    io.err().println(message);
    io.err().print(question + "? [y/N] ");
    io.err().flush();
    String answer;
    try {
      answer =
          new java.io.BufferedReader(
                  new java.io.InputStreamReader(io.in(), java.nio.charset.StandardCharsets.UTF_8))
              .readLine();
    } catch (IOException e) {
      answer = null;
    }
    return answer != null
        && java.util.List.of("y", "yes")
            .contains(answer.strip().toLowerCase(java.util.Locale.ROOT));
  }

  private static boolean isTerminal(int fd) {
    Path link = Path.of("/proc/self/fd/" + fd);
    if (Files.exists(link)) {
      try {
        String target = Files.readSymbolicLink(link).toString();
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
      } catch (IOException | UnsupportedOperationException e) {
        return false;
      }
    }
    return System.console() != null;
  }
}
