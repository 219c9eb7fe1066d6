package dev.cortex.e2e.channels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Slack that refuses the token, or no token at all: the agent server still starts and serves,
 * says why in its log (never the token), and keeps trying, so that a fixed token is taken up.
 */
class SlackBadTokenIT {
  @TempDir Path home;
  @TempDir Path work;

  @Test
  void aRefusedToken_stopsNothing_andIsTriedAgain() throws Exception {
    try (FakeSlack slack = new FakeSlack()) {
      slack.failAuth(true);
      Files.createDirectories(home.resolve("config"));
      Files.writeString(
          home.resolve("config/cortex.toml"),
          "[slack]\nenabled = true\napi_url = \"" + slack.apiUrl() + "\"\nchannels = [\"C0X\"]\n");
      try (AgentServer server =
              new AgentServer(
                      home,
                      Map.of(
                          "SLACK_BOT_TOKEN",
                          FakeSlack.BOT_TOKEN,
                          "SLACK_APP_TOKEN",
                          FakeSlack.APP_TOKEN))
                  .start();
          SessionApi api = new SessionApi(server)) {
        Eventually.until(
            "the refusal is logged",
            () -> server.stderr.toString().contains("auth.test: invalid_auth"));
        assertThat(api.create(ScriptedAgent.command(), work, Map.of()).path("id").asString())
            .as("the server serves")
            .isNotBlank();
        slack.failAuth(false);
        Eventually.until(
            "the connection once the token is accepted",
            AgentServer.LIMIT,
            () -> slack.connected() == 1);
        assertThat(server.stderr.toString())
            .doesNotContain(FakeSlack.BOT_TOKEN, FakeSlack.APP_TOKEN);
      }
    }
  }

  @Test
  void noToken_isSaidInTheLog_andTheServerServes() throws Exception {
    Files.createDirectories(home.resolve("config"));
    Files.writeString(
        home.resolve("config/cortex.toml"), "[slack]\nenabled = true\nchannels = [\"C0X\"]\n");
    try (AgentServer server = new AgentServer(home, Map.of()).start();
        SessionApi api = new SessionApi(server)) {
      assertThat(api.create(ScriptedAgent.command(), work, Map.of()).path("id").asString())
          .isNotBlank();
      assertThat(server.stderr.toString())
          .contains("[slack] is enabled but Slack is not started", "SLACK_BOT_TOKEN");
    }
  }
}
