package dev.cortex.e2e.channels;

import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The {@code [slack]} table the tests' agent servers run with. */
final class SlackSetup {
  private SlackSetup() {}

  /**
   * Writes {@code config/cortex.toml} of {@code home}: Slack on {@code slack}, with {@code more}
   * lines, the {@code command} backend running the scripted agent in {@code work}.
   */
  static void write(Path home, FakeSlack slack, String channel, Path work, String more)
      throws IOException {
    StringBuilder program = new StringBuilder("[");
    for (String arg : ScriptedAgent.command()) {
      program
          .append(program.length() > 1 ? ", " : "")
          .append(TestJson.JSON.writeValueAsString(arg));
    }
    program.append("]");
    Files.createDirectories(home.resolve("config"));
    Files.writeString(
        home.resolve("config/cortex.toml"),
        "[slack]\nenabled = true\napi_url = \""
            + slack.apiUrl()
            + "\"\nchannels = [\""
            + channel
            + "\"]\nbackend = \"command\"\nworking_directory = \""
            + work
            + "\"\nprogram = "
            + program
            + "\n"
            + more);
  }
}
