package dev.cortex.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.tool.ToolContext;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolOutcome;
import dev.cortex.server.client.AgentServerClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class CurrentTimeTest {
  static final CortexHome HOME =
      new CortexHome(Path.of("/nonexistent"), Path.of("/nonexistent/data"));
  static final Instant SUMMER_NOON_UTC = Instant.parse("2026-07-01T12:00:00.750Z");

  static JsonNode call(String zoneOfServer, String arguments) {
    Clock clock = Clock.fixed(SUMMER_NOON_UTC, ZoneId.of(zoneOfServer));
    ToolInvoker invoker =
        new ToolInvoker(
            CoreGroup.create(HOME, new AgentServerClient(java.util.Map.of(), HOME)).tools(),
            HOME,
            clock);
    ToolOutcome outcome =
        invoker.call(
            "current_time",
            JsonMapper.builder().build().readTree(arguments),
            ToolContext.ProgressSink.NONE);
    return outcome.body();
  }

  @Test
  void handle_zoneInSummerTime_appliesDaylightOffset() {
    JsonNode t = call("UTC", "{\"timezone\":\"Europe/Berlin\"}");

    assertThat(t.path("unix_timestamp").asLong()).isEqualTo(1782907200L);
    assertThat(t.path("utc").asString()).isEqualTo("2026-07-01T12:00:00Z");
    assertThat(t.path("local").asString()).isEqualTo("2026-07-01T14:00:00+02:00");
    assertThat(t.path("utc_offset").asString()).isEqualTo("+02:00");
    assertThat(t.path("day_of_week").asString()).isEqualTo("Wednesday");
  }

  @Test
  void handle_noZone_usesTheClocksZone() {
    JsonNode t = call("Asia/Kolkata", "{}");

    assertThat(t.path("timezone").asString()).isEqualTo("Asia/Kolkata");
    assertThat(t.path("local").asString()).isEqualTo("2026-07-01T17:30:00+05:30");
  }

  @Test
  void handle_utc_offsetIsZ() {
    JsonNode t = call("Asia/Kolkata", "{\"timezone\":\"UTC\"}");

    assertThat(t.path("utc_offset").asString()).isEqualTo("Z");
    assertThat(t.path("local").asString()).isEqualTo("2026-07-01T12:00:00Z");
  }

  @Test
  void handle_unknownZone_isInvalidArgument() {
    JsonNode t = call("UTC", "{\"timezone\":\"Europe/Atlantis\"}");

    assertThat(t.path("error").path("code").asString()).isEqualTo("INVALID_ARGUMENT");
    assertThat(t.path("error").path("message").asString()).contains("Europe/Atlantis");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"+05:30", "GMT+2", "UTC+01:00", "Z", "europe/berlin"})
  void handle_offsetsAndNonIanaSpellings_areInvalidArguments(String zone) {
    JsonNode t = call("UTC", "{\"timezone\":\"" + zone + "\"}");

    assertThat(t.path("error").path("code").asString()).isEqualTo("INVALID_ARGUMENT");
  }

  @Test
  void handle_etcZone_isAccepted() {
    JsonNode t = call("UTC", "{\"timezone\":\"Etc/GMT+2\"}");

    assertThat(t.path("utc_offset").asString()).isEqualTo("-02:00");
  }
}
