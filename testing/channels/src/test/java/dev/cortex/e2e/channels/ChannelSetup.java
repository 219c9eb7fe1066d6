package dev.cortex.e2e.channels;

import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The {@code [slack]} and {@code [feishu]} tables the tests' agent servers run with. */
final class ChannelSetup {
  private ChannelSetup() {}

  /**
   * Writes {@code config/cortex.toml} of {@code home}: Slack on {@code slack}, with {@code more}
   * lines, the {@code command} backend running the scripted agent in {@code work}.
   */
  static void slack(Path home, FakeSlack slack, String channel, Path work, String more)
      throws IOException {
    write(home, "slack", slack.apiUrl(), "channels = [\"" + channel + "\"]\n", work, more);
  }

  /** The same for Feishu on {@code feishu}, taking messages of {@code chats}. */
  static void feishu(
      Path home, FakeFeishu feishu, java.util.List<String> chats, Path work, String more)
      throws IOException {
    write(
        home,
        "feishu",
        feishu.apiUrl(),
        "chats = " + TestJson.JSON.writeValueAsString(chats) + "\n",
        work,
        more);
  }

  private static void write(
      Path home, String table, String apiUrl, String allowed, Path work, String more)
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
        "["
            + table
            + "]\nenabled = true\napi_url = \""
            + apiUrl
            + "\"\n"
            + allowed
            + "backend = \"command\"\nworking_directory = \""
            + work
            + "\"\nprogram = "
            + program
            + "\n"
            + more);
  }
}
