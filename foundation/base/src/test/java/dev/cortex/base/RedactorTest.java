package dev.cortex.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

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

  /** A transcript entry holding a tool's answer, as a session keeps it. */
  static String entry(String answer) {
    Map<String, Object> entry = new LinkedHashMap<>();
    entry.put("type", "tool_result");
    entry.put("tool_use_id", "call-1");
    entry.put("content", answer);
    entry.put("is_error", false);
    return Json.write(entry);
  }

  /** Regression: a marked value that spelt the entry's own syntax made the entry invalid JSON. */
  @Test
  void redact_aMarkedValueThatSpellsJsonSyntax_keepsTheEntryWhole() {
    String entry = entry(Json.write(Map.of("token", "\",\"is_error")));

    String redacted = Redactor.marked().redact(entry);

    JsonNode tree = Json.mapper().readTree(redacted);
    assertThat(tree.path("is_error").isBoolean()).isTrue();
    assertThat(tree.path("tool_use_id").asString()).isEqualTo("call-1");
    assertThat(Json.mapper().readTree(tree.path("content").asString()).path("token").asString())
        .isEqualTo(Redactor.REDACTED);
  }

  /** Regression: a marked value equal to a member's name took the name out of the entry. */
  @Test
  void redact_aMarkedValueThatIsAMembersName_leavesTheNames() {
    String entry = entry(Json.write(Map.of("secret", "tool_use_id")));

    JsonNode tree = Json.mapper().readTree(Redactor.marked().redact(entry));

    assertThat(tree.path("tool_use_id").asString()).isEqualTo("call-1");
    assertThat(tree.path("type").asString()).isEqualTo("tool_result");
    assertThat(tree.path("content").asString()).doesNotContain("tool_use_id");
  }

  @Test
  void redact_aMarkedValueThatIsMarkup_isTakenOutOfItsMemberAlone() {
    String config = Json.write(Map.of("eos_token", "<|endoftext|>", "bos", "<s>"));
    String entry = entry(Json.write(Map.of("config", config, "sample", "one<|endoftext|>two")));

    String redacted = Redactor.marked().redact(entry);

    assertThat(redacted).contains("one<|endoftext|>two").contains("[redacted]");
    assertThat(redacted.indexOf("<|endoftext|>")).isEqualTo(redacted.lastIndexOf("<|endoftext|>"));
  }

  /**
   * A marked password of any characters is taken out of the command that spells it too; only values
   * of a token's characters used to be.
   */
  @Test
  void redact_aMarkedPasswordOfAnyCharacters_isTakenOutWhereverItAppears() {
    String password = "S3cret!pass #(x)";
    String entry =
        entry(
            Json.write(
                Map.of("password", password, "command", "curl -u 'admin:" + password + "' /x")));

    String redacted = Redactor.marked().redact(entry);

    assertThat(redacted).doesNotContain("S3cret!pass").contains("admin:[redacted]");
  }

  @Test
  void redact_aMarkedValueOfBlanksOrPunctuation_isNoSecret() {
    String entry =
        entry(
            Json.write(
                Map.of("password", "        ", "token", "--------", "code", "if x:\n        y")));

    String redacted = Redactor.marked().redact(entry);

    assertThat(redacted).doesNotContain("[redacted]");
  }

  @Test
  void redact_aKnownValueAsAMembersName_isTakenOutOfTheName() {
    String token = "I_NmpvJ4PykI3yVJE3dJZt4gZJMIm4yL";
    Redactor redactor = Redactor.builder().value(token).build();

    String redacted = redactor.redact(Json.write(Map.of(token, "seen")));

    assertThat(redacted).doesNotContain(token).contains("[redacted]").contains("seen");
  }

  @Test
  void marked_knowsTheWaitpointForm_evenCut() {
    String cut = SECRET.substring(0, 20);

    String redacted = Redactor.marked().redact(entry("cortex signal wp-1 --secret " + cut + " ok"));

    assertThat(redacted).doesNotContain("wps_A1b2").contains("--secret [redacted] ok");
    assertThat(Redactor.marked().redact("wps_short")).isEqualTo("wps_short");
  }

  @Test
  void redact_aKnownValueAsOtherWritersEscapeIt_isTakenOut() {
    Redactor redactor = Redactor.builder().value("tok/en-\u00e4-1234").build();

    String redacted = redactor.redact("{\"text\":\"run tok\\/en-\\u00e4-1234 now\"}");

    assertThat(Json.mapper().readTree(redacted).path("text").asString())
        .isEqualTo("run [redacted] now");
  }

  @Test
  void redact_textThatIsNotJson_losesItsKnownValuesAndForms() {
    Redactor redactor = Redactor.builder().value("known-value-1").build();

    String text = "{\"cut\": \"known-value-1 and " + SECRET + " and more";

    assertThat(redactor.redact(text)).isEqualTo("{\"cut\": \"[redacted] and [redacted] and more");
  }

  @Test
  void redact_jsonLinesInAString_loseTheirMarkedValues() {
    String lines =
        Json.write(Map.of("api_key", "k-0123456789")) + "\n" + Json.write(Map.of("n", 2)) + "\n";
    String entry = entry(lines + "echo k-0123456789");

    String redacted = Redactor.marked().redact(entry);

    assertThat(redacted).doesNotContain("k-0123456789");
    assertThat(Json.mapper().readTree(redacted).path("is_error").isBoolean()).isTrue();
  }

  @Test
  void redact_keepsWhatItDoesNotTakeOut_numbersAndUntouchedText() {
    String text = "{\"n\": 1.10, \"big\": 1e400, \"token\": \"abcdefgh12\"}";

    String redacted = Redactor.marked().redact(text);

    assertThat(redacted).contains("1.10").contains("1E+400").doesNotContain("abcdefgh12");
    String untouched = "{\"n\": 1.10}";
    assertThat(Redactor.marked().redact(untouched)).isSameAs(untouched);
  }

  /**
   * A hostile answer of a few hundred KB: thousands of marked values, each also elsewhere. One pass
   * per value would take seconds; this runs in one pass over the text.
   */
  @Test
  void redact_aLargeAnswerWithThousandsOfMarkedValues_takesThemAllOut() {
    List<Map<String, String>> items = new ArrayList<>();
    StringBuilder log = new StringBuilder();
    for (int i = 0; i < 5_000; i++) {
      String value = "value-" + i + "-abcdefgh";
      items.add(Map.of("token", value));
      log.append("used ").append(value).append('\n');
    }
    String entry = entry(Json.write(Map.of("items", items, "log", log.toString())));
    assertThat(entry.length()).isGreaterThan(200_000);

    String redacted = Redactor.marked().redact(entry);

    assertThat(redacted).doesNotContain("-abcdefgh").contains("used [redacted]");
  }
}
