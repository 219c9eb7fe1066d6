package dev.cortex.e2e.channels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.SessionApi;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An event Feishu sends again after the agent server restarted (it never saw the answer) is still
 * one message, in the same session; the next message goes on in it.
 */
class FeishuRestartIT {
  @TempDir Path home;
  @TempDir Path work;

  @Test
  void anEventSentAgainAfterARestart_isStillOneMessage() throws Exception {
    try (FakeFeishu feishu = new FakeFeishu()) {
      ChannelSetup.feishu(home, feishu, List.of("oc_restart1"), work, "");
      try (AgentServer server = new AgentServer(home, FeishuBadSecretIT.CREDENTIALS).start()) {
        Map<String, Object> before =
            FakeFeishu.message("ev-r1", "oc_restart1", "ou_p1", "before", "om_r1");
        Eventually.until("taken", () -> FakeFeishu.deliver(server, before).statusCode() == 200);
        Eventually.until(
            "the reply", AgentServer.LIMIT, () -> feishu.texts("oc_restart1").contains("before"));
        String id;
        try (SessionApi api = new SessionApi(server)) {
          id = api.show("feishu-oc_restart1").path("id").asString();
        }
        server.stop();

        server.start();
        Eventually.until(
            "taken again", () -> FakeFeishu.deliver(server, before).statusCode() == 200);
        FakeFeishu.deliver(
            server, FakeFeishu.message("ev-r2", "oc_restart1", "ou_p1", "after", "om_r2"));
        Eventually.until(
            "the second reply",
            AgentServer.LIMIT,
            () -> feishu.texts("oc_restart1").contains("after"));
        try (SessionApi api = new SessionApi(server)) {
          assertThat(api.show("feishu-oc_restart1").path("id").asString()).isEqualTo(id);
          assertThat(SessionApi.userTexts(api.transcript(id))).containsExactly("before", "after");
        }
        assertThat(feishu.texts("oc_restart1")).containsExactly("before", "after");
      }
    }
  }
}
