package dev.cortex.server.channels.feishu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class FeishuCallbacksTest {
  @Test
  void decryptsFeishusOwnExample() throws Exception {
    // The example of Feishu's event subscription documentation: key "test key", "hello world".
    FeishuCallbacks callbacks = new FeishuCallbacks("token", "test key");
    assertThat(
            new String(
                callbacks.decrypt("P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk="),
                StandardCharsets.UTF_8))
        .isEqualTo("hello world");
    assertThatThrownBy(
            () ->
                new FeishuCallbacks("token", "other key")
                    .decrypt("P37w+VZImNgPEO1RBhJ6RtKl7n6zymIbEG1pReEzghk="))
        .isInstanceOf(FeishuCallbacks.Refused.class);
  }

  @Test
  void aPlainBody_needsTheVerificationToken() throws Exception {
    FeishuCallbacks callbacks = new FeishuCallbacks("the-token", null);
    byte[] good = "{\"schema\":\"2.0\",\"header\":{\"token\":\"the-token\"}}".getBytes();
    assertThat(callbacks.open(good, null, null, null, Instant.now()).path("schema").asString())
        .isEqualTo("2.0");
    byte[] bad = "{\"schema\":\"2.0\",\"header\":{\"token\":\"the-tokem\"}}".getBytes();
    assertThatThrownBy(() -> callbacks.open(bad, null, null, null, Instant.now()))
        .hasMessageContaining("verification token");
    assertThatThrownBy(() -> callbacks.open("[1]".getBytes(), null, null, null, Instant.now()))
        .hasMessageContaining("JSON object");
  }
}
