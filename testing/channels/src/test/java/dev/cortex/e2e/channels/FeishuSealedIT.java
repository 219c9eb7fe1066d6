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
 * Feishu's event subscription with an encrypt key: each event comes encrypted and signed, and only
 * one whose signature matches, of the last five minutes, is taken; a plain body is refused, since
 * the key says bodies are encrypted. The credentials show in no log.
 */
class FeishuSealedIT {
  @TempDir Path home;
  @TempDir Path work;

  @Test
  void onlySignedRecentEncryptedEvents_areTaken() throws Exception {
    try (FakeFeishu feishu = new FakeFeishu()) {
      ChannelSetup.feishu(home, feishu, List.of("oc_sealed01"), work, "");
      try (AgentServer server =
              new AgentServer(
                      home,
                      Map.of(
                          "FEISHU_APP_ID", FakeFeishu.APP_ID,
                          "FEISHU_APP_SECRET", FakeFeishu.APP_SECRET,
                          "FEISHU_VERIFICATION_TOKEN", FakeFeishu.VERIFICATION,
                          "FEISHU_ENCRYPT_KEY", FakeFeishu.ENCRYPT_KEY))
                  .start();
          SessionApi api = new SessionApi(server)) {
        Eventually.until("the bot's identity", () -> !feishu.calls("bot/v3/info").isEmpty());
        Map<String, Object> event =
            FakeFeishu.message("ev-s01", "oc_sealed01", "ou_p1", "sealed hello", "om_s01");
        long now = System.currentTimeMillis() / 1000;

        assertThat(
                FakeFeishu.deliverSealed(server, event, FakeFeishu.ENCRYPT_KEY, now, "0".repeat(64))
                    .statusCode())
            .isEqualTo(401);
        assertThat(
                FakeFeishu.deliverSealed(server, event, FakeFeishu.ENCRYPT_KEY, now - 600, null)
                    .statusCode())
            .isEqualTo(401);
        assertThat(FakeFeishu.deliverSealed(server, event, "another-key", now, null).statusCode())
            .isEqualTo(401);
        assertThat(FakeFeishu.deliver(server, event).statusCode()).isEqualTo(401);
        // The URL check comes encrypted and unsigned: answered once it decrypts with the token.
        java.net.http.HttpResponse<String> check =
            FakeFeishu.deliverSealedUnsigned(
                server,
                Map.of(
                    "challenge",
                    "ch-sealed",
                    "token",
                    FakeFeishu.VERIFICATION,
                    "type",
                    "url_verification"),
                FakeFeishu.ENCRYPT_KEY);
        assertThat(check.statusCode()).isEqualTo(200);
        assertThat(check.body()).contains("ch-sealed");
        assertThat(api.call("list", Map.of()).result().toString()).doesNotContain("oc_sealed01");

        Eventually.until(
            "the sealed event is taken",
            () ->
                FakeFeishu.deliverSealed(
                            server,
                            event,
                            FakeFeishu.ENCRYPT_KEY,
                            System.currentTimeMillis() / 1000,
                            null)
                        .statusCode()
                    == 200);
        Eventually.until(
            "the reply",
            AgentServer.LIMIT,
            () -> feishu.texts("oc_sealed01").contains("sealed hello"));
        assertThat(SessionApi.userTexts(api.transcript("feishu-oc_sealed01")))
            .containsExactly("sealed hello");
        assertThat(server.stderr.toString())
            .contains("its signature does not match", "over five minutes", "not encrypted")
            .doesNotContain(FakeFeishu.APP_SECRET, FakeFeishu.VERIFICATION, FakeFeishu.ENCRYPT_KEY);
      }
    }
  }
}
