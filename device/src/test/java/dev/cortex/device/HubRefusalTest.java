package dev.cortex.device;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a device makes of the hub's refusals: the reason to show, and whether to ask again. */
class HubRefusalTest {
  static String body(String code, String message) {
    return "{\"error\":{\"code\":\"" + code + "\",\"message\":\"" + message + "\"}}";
  }

  @Test
  void of_theHubsBody_givesItsCodeAndSentence() {
    HubRefusal refusal =
        HubRefusal.of(403, body("HOST_NOT_ALLOWED", "The hub answers to gpu-server only."));

    assertThat(refusal.describe())
        .isEqualTo("HTTP 403 HOST_NOT_ALLOWED: The hub answers to gpu-server only.");
    assertThat(refusal.isFinal()).isTrue();
  }

  @Test
  void isFinal_notRegisteredAndPassingTroubles_areAskedAgain() {
    assertThat(HubRefusal.of(403, body("NOT_REGISTERED", "not yet")).isFinal()).isFalse();
    assertThat(HubRefusal.of(429, body("TOO_MANY_ATTEMPTS", "wait")).isFinal()).isFalse();
    assertThat(HubRefusal.of(503, body("UNAVAILABLE", "starting")).isFinal()).isFalse();
    assertThat(HubRefusal.of(401, body("UNAUTHORIZED", "wrong")).isFinal()).isTrue();
    assertThat(HubRefusal.of(403, body("ORIGIN_NOT_ALLOWED", "no pages")).isFinal()).isTrue();
    assertThat(HubRefusal.of(403, body("HOST_NOT_ALLOWED", "not that name")).isFinal()).isTrue();
  }

  /** Regression: a proxy's 401 or 403 ended the client (exit 3) as if the hub had refused it. */
  @Test
  void of_anAnswerThatIsNotTheHubs_keepsTheStatusAlone_andIsAskedAgain() {
    HubRefusal proxy = HubRefusal.of(403, "<html><body>Forbidden</body></html>");
    HubRefusal tunnel = HubRefusal.of(401, "");
    HubRefusal other = HubRefusal.of(403, body("ACCESS_DENIED", "by the gateway"));
    HubRefusal empty = HubRefusal.of(502, "");

    assertThat(proxy.describe()).isEqualTo("HTTP 403");
    assertThat(proxy.isFinal()).isFalse();
    assertThat(tunnel.isFinal()).isFalse();
    assertThat(other.isFinal()).isFalse();
    assertThat(empty.describe()).isEqualTo("HTTP 502");
    assertThat(empty.isFinal()).isFalse();
  }

  @Test
  void of_controlCharactersInTheSentence_areNotPrinted() {
    HubRefusal refusal = HubRefusal.of(403, body("HOST_NOT_ALLOWED", "line\\u001b[31m red"));

    assertThat(refusal.message()).doesNotContain("\u001b").contains("line").contains("red");
  }
}
