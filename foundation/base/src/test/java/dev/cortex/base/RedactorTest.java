package dev.cortex.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Secrets taken out of text by their form, their value and their mark. */
class RedactorTest {
  static final Pattern WAITPOINT = Pattern.compile("wps_[A-Za-z0-9_-]{43}");
  static final String SECRET = "wps_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0u-_";

  @Test
  void redact_aSecretOfItsForm_isTakenOutWherever() {
    Redactor redactor = Redactor.builder().form(WAITPOINT).build();

    String text = "cortex signal wp-3fa2c1d0e4b5 --secret " + SECRET + " --status ok";

    assertThat(redactor.redact(text))
        .isEqualTo("cortex signal wp-3fa2c1d0e4b5 --secret [redacted] --status ok");
  }

  @Test
  void redact_aKnownValue_asItIsAndAsJsonEscapesIt() {
    String token = "tok\"en-with/quote";
    Redactor redactor = Redactor.builder().value(token).build();

    String once = Json.write(Map.of("text", token));
    String twice = Json.write(Map.of("content", once));

    assertThat(redactor.redact("env: " + token)).isEqualTo("env: [redacted]");
    assertThat(redactor.redact(once)).doesNotContain("en-with").contains("[redacted]");
    assertThat(redactor.redact(twice)).doesNotContain("en-with").contains("[redacted]");
  }

  @Test
  void redact_aMarkedValue_inJsonInsideAJsonString_isTakenOutEverywhere() {
    String secret = "a-secret-of-no-known-form";
    String answer =
        Json.write(
            Map.of(
                "secret",
                secret,
                "recipe",
                Map.of(
                    "command", "run --secret " + secret, "env", Map.of("MY_TOKEN", "t0k3n-val"))));
    String entry = Json.write(Map.of("tool_use_id", "call-1", "content", answer));

    String redacted = Redactor.marked().redact(entry);

    assertThat(redacted)
        .doesNotContain(secret)
        .doesNotContain("t0k3n-val")
        .contains("run --secret [redacted]")
        .contains("call-1");
    assertThat(Json.mapper().readTree(redacted).path("content").asString()).isNotBlank();
  }

  @Test
  void redact_shortOrUnmarkedValues_stay() {
    String text = Json.write(Map.of("token", "short", "label", "a long enough label"));

    assertThat(Redactor.marked().redact(text)).isEqualTo(text);
    assertThat(Redactor.marked().redact("not json {")).isEqualTo("not json {");
    assertThat(Redactor.marked().redact(null)).isNull();
  }

  @Test
  void value_blankOrShort_isIgnored() {
    Redactor redactor = Redactor.builder().value(null).value("  ").value("abc").build();

    assertThat(redactor.redact("abc")).isEqualTo("abc");
  }
}
