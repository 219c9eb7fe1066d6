package dev.cortex.e2e.channels;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What goes wrong with Feishu never stops the agent server, and loses no message: a refused app
 * secret is logged and tried again, and an event that came meanwhile is answered 503 (Feishu sends
 * it again) and taken once the app signs in; a reply Feishu refuses is logged; missing credentials
 * are named in the log.
 */
class FeishuBadSecretIT {
  @TempDir Path home;
  @TempDir Path work;

  static final Map<String, String> CREDENTIALS =
      Map.of(
          "FEISHU_APP_ID", FakeFeishu.APP_ID,
          "FEISHU_APP_SECRET", FakeFeishu.APP_SECRET,
          "FEISHU_VERIFICATION_TOKEN", FakeFeishu.VERIFICATION);

  @Test
  void aRefusedSecret_stopsNothing_andTheEventMeanwhileIsTakenLater() throws Exception {
    try (FakeFeishu feishu = new FakeFeishu()) {
      feishu.refuseSecret(true);
      ChannelSetup.feishu(home, feishu, List.of("oc_bad01"), work, "");
      try (AgentServer server = new AgentServer(home, CREDENTIALS).start();
          SessionApi api = new SessionApi(server)) {
        Eventually.until(
            "the refusal is logged",
            () -> server.stderr.toString().contains("10014 app secret invalid"));
        Map<String, Object> event =
            FakeFeishu.message("ev-b01", "oc_bad01", "ou_p1", "while refused", "om_b01");
        assertThat(FakeFeishu.deliver(server, event).statusCode()).isEqualTo(503);
        assertThat(api.create(ScriptedAgent.command(), work, Map.of()).path("id").asString())
            .as("the server serves")
            .isNotBlank();

        feishu.refuseSecret(false);
        Eventually.until(
            "the event is taken once the app signs in",
            AgentServer.LIMIT,
            () -> FakeFeishu.deliver(server, event).statusCode() == 200);
        Eventually.until(
            "the reply",
            AgentServer.LIMIT,
            () -> feishu.texts("oc_bad01").contains("while refused"));

        // Feishu refuses the next reply: logged, the message is in the session all the same.
        feishu.failMessages(true);
        FakeFeishu.deliver(
            server, FakeFeishu.message("ev-b02", "oc_bad01", "ou_p1", "unsent", "om_b02"));
        Eventually.until(
            "the refused reply is logged",
            AgentServer.LIMIT,
            () -> server.stderr.toString().contains("230002"));
        assertThat(SessionApi.userTexts(api.transcript("feishu-oc_bad01")))
            .containsExactly("while refused", "unsent");
        assertThat(server.stderr.toString())
            .doesNotContain(FakeFeishu.APP_SECRET, FakeFeishu.VERIFICATION);
      }
    }
  }

  @Test
  void missingCredentials_areNamedInTheLog_andTheServerServes() throws Exception {
    Files.createDirectories(home.resolve("config"));
    Files.writeString(
        home.resolve("config/cortex.toml"), "[feishu]\nenabled = true\nchats = [\"oc_x1\"]\n");
    try (AgentServer server =
            new AgentServer(home, Map.of("FEISHU_APP_ID", FakeFeishu.APP_ID)).start();
        SessionApi api = new SessionApi(server)) {
      assertThat(api.create(ScriptedAgent.command(), work, Map.of()).path("id").asString())
          .isNotBlank();
      assertThat(server.stderr.toString())
          .contains(
              "[feishu] is enabled but Feishu is not started",
              "FEISHU_APP_SECRET",
              "FEISHU_VERIFICATION_TOKEN");
    }
  }
}
