package dev.cortex.e2e.mcp;

import static dev.cortex.testing.TestJson.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Listed;
import dev.cortex.testing.Outcome;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The behaviour of the first tools, written once and run over every way of reaching them: MCP on
 * stdio, MCP on streamable HTTP, and {@code cortex tools call}. Servers run with TZ
 * America/Sao_Paulo so that the default zone is observable.
 */
abstract class ToolContract {
  @TempDir static Path home;

  abstract Outcome call(String tool, Map<String, Object> arguments) throws Exception;

  abstract List<Listed> list() throws Exception;

  @Test
  void currentTime_withZone_returnsConsistentTimes() throws Exception {
    Outcome outcome = call("current_time", Map.of("timezone", "Asia/Tokyo"));

    assertThat(outcome.isError()).isFalse();
    JsonNode t = outcome.structured();
    assertThat(t.path("timezone").asString()).isEqualTo("Asia/Tokyo");
    assertThat(t.path("utc_offset").asString()).isEqualTo("+09:00");
    Instant utc = Instant.parse(t.path("utc").asString());
    assertThat(utc.getEpochSecond()).isEqualTo(t.path("unix_timestamp").asLong());
    OffsetDateTime local = OffsetDateTime.parse(t.path("local").asString());
    assertThat(local.getOffset()).isEqualTo(ZoneOffset.ofHours(9));
    assertThat(local.toInstant()).isEqualTo(utc);
    assertThat(Math.abs(utc.getEpochSecond() - Instant.now().getEpochSecond())).isLessThan(300);
    assertThat(JSON.readTree(outcome.text())).isEqualTo(t);
  }

  @Test
  void currentTime_withoutZone_usesServersLocalZone() throws Exception {
    Outcome outcome = call("current_time", Map.of());

    assertThat(outcome.isError()).isFalse();
    assertThat(outcome.structured().path("timezone").asString()).isEqualTo("America/Sao_Paulo");
    assertThat(outcome.structured().path("utc_offset").asString()).isEqualTo("-03:00");
  }

  @Test
  void currentTime_unknownZone_isInvalidArgument() throws Exception {
    Outcome outcome = call("current_time", Map.of("timezone", "Mars/Olympus_Mons"));

    assertThat(outcome.isError()).isTrue();
    assertThat(outcome.errorCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(outcome.errorMessage()).contains("Mars/Olympus_Mons").contains("IANA");
    assertThat(JSON.readTree(outcome.text())).isEqualTo(outcome.structured());
  }

  @Test
  void currentTime_wrongType_isInvalidArgumentNamingTheField() throws Exception {
    Outcome outcome = call("current_time", Map.of("timezone", 42));

    assertThat(outcome.errorCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(outcome.errorMessage()).contains("timezone").contains("string");
  }

  @Test
  void currentTime_unknownField_isInvalidArgumentListingAcceptedFields() throws Exception {
    Outcome outcome = call("current_time", Map.of("time_zone", "UTC"));

    assertThat(outcome.errorCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(outcome.errorMessage())
        .contains("unknown field 'time_zone'")
        .contains("accepted: timezone");
  }

  @Test
  void health_emptyArguments_answersOkWithVersion() throws Exception {
    Outcome outcome = call("cortex_health", Map.of());

    assertThat(outcome.isError()).isFalse();
    assertThat(outcome.structured().path("status").asString()).isEqualTo("ok");
    assertThat(outcome.structured().path("version").asString())
        .isNotBlank()
        .isNotEqualTo("unknown");
  }

  @Test
  void health_doesNotCreateADatabase() throws Exception {
    call("cortex_health", Map.of());

    assertThat(home.resolve("data")).doesNotExist();
  }

  @Test
  void health_withArguments_isInvalidArgument() throws Exception {
    Outcome outcome = call("cortex_health", Map.of("verbose", true));

    assertThat(outcome.errorCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(outcome.errorMessage()).contains("takes no arguments");
  }

  @Test
  void list_everyToolDeclaresAllHintsAndClosedSchemas() throws Exception {
    List<Listed> tools = list();

    assertThat(tools).extracting(Listed::name).contains("current_time", "cortex_health");
    for (Listed tool : tools) {
      for (String hint :
          List.of("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")) {
        assertThat(tool.annotations().path(hint).isBoolean()).as(tool.name() + " " + hint).isTrue();
      }
      assertThat(tool.inputSchema().path("additionalProperties").asBoolean(true))
          .as(tool.name())
          .isFalse();
      assertThat(tool.outputSchema().path("type").asString()).as(tool.name()).isEqualTo("object");
    }
  }
}
