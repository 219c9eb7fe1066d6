package dev.cortex.workflows.consent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConsentSettingsTest {
  @Test
  void defaults_elicitationThenNativeAfterTenSeconds_allWithinFortyFive() {
    String before = System.getProperty(ConsentSettings.TIMEOUT_PROPERTY);
    System.clearProperty(ConsentSettings.TIMEOUT_PROPERTY);
    try {
      ConsentSettings settings = ConsentSettings.fromEnvironment(Map.of());

      assertThat(settings.channels()).containsExactly("elicitation", "native");
      assertThat(settings.grace()).isEqualTo(Duration.ofSeconds(10));
      assertThat(settings.timeout()).isEqualTo(Duration.ofSeconds(45));
    } finally {
      if (before != null) {
        System.setProperty(ConsentSettings.TIMEOUT_PROPERTY, before);
      }
    }
  }

  @Test
  void wait_fromTheEnvironment_upToFiveMinutes() {
    String before = System.getProperty(ConsentSettings.TIMEOUT_PROPERTY);
    System.clearProperty(ConsentSettings.TIMEOUT_PROPERTY);
    try {
      assertThat(
              ConsentSettings.fromEnvironment(Map.of("CORTEX_CONFIRM_TIMEOUT_SECONDS", "300"))
                  .timeout())
          .isEqualTo(Duration.ofMinutes(5));
      assertThat(
              ConsentSettings.fromEnvironment(Map.of("CORTEX_CONFIRM_TIMEOUT_SECONDS", " 20 "))
                  .timeout())
          .isEqualTo(Duration.ofSeconds(20));
      assertThatThrownBy(
              () ->
                  ConsentSettings.fromEnvironment(Map.of("CORTEX_CONFIRM_TIMEOUT_SECONDS", "301")))
          .hasMessageContaining("CORTEX_CONFIRM_TIMEOUT_SECONDS='301'")
          .hasMessageContaining("1 to 300");
      assertThatThrownBy(
              () -> ConsentSettings.fromEnvironment(Map.of("CORTEX_CONFIRM_TIMEOUT_SECONDS", "0")))
          .hasMessageContaining("1 to 300");
    } finally {
      if (before != null) {
        System.setProperty(ConsentSettings.TIMEOUT_PROPERTY, before);
      }
    }
  }

  @Test
  void orderAndGrace_fromTheEnvironment() {
    ConsentSettings settings =
        ConsentSettings.fromEnvironment(
            Map.of(
                "CORTEX_CONFIRM_CHANNELS",
                " Native, elicitation",
                "CORTEX_CONFIRM_GRACE_SECONDS",
                "20"));

    assertThat(settings.channels()).containsExactly("native", "elicitation");
    assertThat(settings.grace()).isEqualTo(Duration.ofSeconds(20));
    assertThat(
            ConsentSettings.fromEnvironment(Map.of("CORTEX_CONFIRM_CHANNELS", "elicitation"))
                .channels())
        .isEqualTo(List.of("elicitation"));
  }

  @Test
  void badValues_nameTheVariableAndWhatItTakes() {
    assertThatThrownBy(
            () -> ConsentSettings.fromEnvironment(Map.of("CORTEX_CONFIRM_CHANNELS", "email")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("CORTEX_CONFIRM_CHANNELS='email'")
        .hasMessageContaining("elicitation, native");
    assertThatThrownBy(
            () ->
                ConsentSettings.fromEnvironment(Map.of("CORTEX_CONFIRM_CHANNELS", "native,native")))
        .hasMessageContaining("each once");
    assertThatThrownBy(
            () -> ConsentSettings.fromEnvironment(Map.of("CORTEX_CONFIRM_GRACE_SECONDS", "301")))
        .hasMessageContaining("0 to 300");
    assertThatThrownBy(
            () -> ConsentSettings.fromEnvironment(Map.of("CORTEX_CONFIRM_GRACE_SECONDS", "soon")))
        .hasMessageContaining("CORTEX_CONFIRM_GRACE_SECONDS='soon'");
  }

  @Test
  void timeoutProperty_onlyShortens() {
    String before = System.getProperty(ConsentSettings.TIMEOUT_PROPERTY);
    try {
      System.setProperty(ConsentSettings.TIMEOUT_PROPERTY, "1500");
      assertThat(ConsentSettings.fromEnvironment(Map.of()).timeout())
          .isEqualTo(Duration.ofMillis(1500));
      System.setProperty(ConsentSettings.TIMEOUT_PROPERTY, "86400000");
      assertThat(
              ConsentSettings.fromEnvironment(Map.of("CORTEX_CONFIRM_TIMEOUT_SECONDS", "300"))
                  .timeout())
          .isEqualTo(Duration.ofMinutes(5));
      System.clearProperty(ConsentSettings.TIMEOUT_PROPERTY);
      assertThat(
              ConsentSettings.fromEnvironment(Map.of("cortex.test.confirmTimeoutMillis", "10"))
                  .timeout())
          .as("the property is no environment variable")
          .isEqualTo(Duration.ofSeconds(45));
    } finally {
      if (before == null) {
        System.clearProperty(ConsentSettings.TIMEOUT_PROPERTY);
      } else {
        System.setProperty(ConsentSettings.TIMEOUT_PROPERTY, before);
      }
    }
  }
}
