package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.protocol.webhook.Signals;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The one rule for the bodies of the agent server's HTTP routes. */
class JsonRoutesTest {
  record Outer(String name, List<Inner> items) {}

  record Inner(String value) {}

  static <T> JsonRoutes.Parsed<T> strict(String json, Class<T> type) {
    return JsonRoutes.strict(json.getBytes(StandardCharsets.UTF_8), type);
  }

  @Test
  void strict_knownFields_bindTheRecord() {
    JsonRoutes.Parsed<Signals.Signal> parsed =
        strict(
            "{\"id\": \"wp-3fa2c1d0e4b5\", \"secret\": \"s\", \"data\": {\"any\": 1}}",
            Signals.Signal.class);

    assertThat(parsed.problem()).isNull();
    assertThat(parsed.value().id()).isEqualTo("wp-3fa2c1d0e4b5");
    assertThat(parsed.value().data().path("any").asInt()).isEqualTo(1);
  }

  @Test
  void strict_unknownField_isRefusedByName() {
    JsonRoutes.Parsed<Signals.Signal> parsed =
        strict(
            "{\"id\": \"wp-3fa2c1d0e4b5\", \"secret\": \"s\", \"mesage\": \"x\"}",
            Signals.Signal.class);

    assertThat(parsed.value()).isNull();
    assertThat(parsed.problem())
        .startsWith("The request has an unknown field 'mesage'; its fields are ")
        .contains("message", "secret");
  }

  @Test
  void strict_unknownNestedField_isNamedByItsPlace() {
    JsonRoutes.Parsed<Outer> parsed =
        strict(
            "{\"name\": \"n\", \"items\": [{\"value\": \"a\"}, {\"valeu\": \"b\"}]}", Outer.class);

    assertThat(parsed.problem())
        .isEqualTo("The request has an unknown field 'items[1].valeu'; its fields are value.");
  }

  /** Regression: a field given twice was taken with its last value. */
  @Test
  void strict_aFieldGivenTwice_isRefusedByName() {
    JsonRoutes.Parsed<Signals.Signal> parsed =
        strict(
            "{\"id\": \"wp-1\", \"secret\": \"s\", \"status\": \"ok\", \"id\": \"wp-2\"}",
            Signals.Signal.class);

    assertThat(parsed.value()).isNull();
    assertThat(parsed.problem()).isEqualTo("The request has the field 'id' twice.");
  }

  @Test
  void strict_moreAfterTheBody_isRefused() {
    JsonRoutes.Parsed<Signals.Signal> parsed =
        strict("{\"id\": \"wp-1\", \"status\": \"ok\"} {\"id\": \"wp-2\"}", Signals.Signal.class);

    assertThat(parsed.value()).isNull();
    assertThat(parsed.problem()).isEqualTo("The request has more than one JSON value.");
  }

  @Test
  void strict_notABody_hasNoValueAndNoSentence() {
    for (String json : List.of("", "{not json", "[1]", "null", "{\"id\": {}}")) {
      JsonRoutes.Parsed<Signals.Signal> parsed = strict(json, Signals.Signal.class);

      assertThat(parsed.value()).as(json).isNull();
      assertThat(parsed.problem()).as(json).isNull();
    }
  }
}
