package dev.cortex.e2e.channels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.SessionApi;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Across a restart of the agent server: a Slack message taken before it, sent again by Slack after
 * it (as Slack does with an event whose acknowledgement it did not get), is still one message, and
 * the session of its channel is the same one.
 */
class SlackRestartIT {
  @TempDir Path home;
  @TempDir Path work;

  @Test
  void aMessageSentAgainAfterARestart_isStillOneMessage() throws Exception {
    try (FakeSlack slack = new FakeSlack()) {
      ChannelSetup.slack(home, slack, "C0RST", work, "");
      Map<String, String> env =
          Map.of("SLACK_BOT_TOKEN", FakeSlack.BOT_TOKEN, "SLACK_APP_TOKEN", FakeSlack.APP_TOKEN);
      try (AgentServer server = new AgentServer(home, env).start()) {
        Eventually.until("connected", () -> slack.connected() == 1);
        slack.push(FakeSlack.message("EvR1", "C0RST", "U0P", "before", "1700000800.1", null));
        Eventually.until(
            "the reply",
            AgentServer.LIMIT,
            () ->
                slack.calls("chat.postMessage").stream()
                    .anyMatch(c -> "before".equals(c.form().get("text"))));
        String id;
        try (SessionApi api = new SessionApi(server)) {
          id = api.show("slack-C0RST").path("id").asString();
        }
        server.stop();
        Eventually.until("disconnected", () -> slack.connected() == 0);

        server.start();
        Eventually.until("connected again", () -> slack.connected() == 1);
        slack.push(FakeSlack.message("EvR1", "C0RST", "U0P", "before", "1700000800.1", null));
        slack.push(FakeSlack.message("EvR2", "C0RST", "U0P", "after", "1700000800.2", null));
        Eventually.until(
            "the second reply",
            AgentServer.LIMIT,
            () ->
                slack.calls("chat.postMessage").stream()
                    .anyMatch(c -> "after".equals(c.form().get("text"))));
        try (SessionApi api = new SessionApi(server)) {
          assertThat(api.show("slack-C0RST").path("id").asString()).isEqualTo(id);
          assertThat(SessionApi.userTexts(api.transcript(id))).containsExactly("before", "after");
        }
      }
    }
  }
}
