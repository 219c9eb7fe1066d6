package dev.cortex.e2e.schedules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.TestJson;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Schedules across a stop of the agent server: a fire due while it was down runs once late when
 * within its grace, is recorded missed when its policy is skip, and after a longer outage than the
 * grace is missed too; nothing fires twice.
 */
class ScheduleRestartIT {
  @TempDir Path home;
  @TempDir Path work;

  JsonNode add(AgentServer server, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("schedule", "add", "{\"say\": \"tick\"}"));
    all.addAll(List.of(args));
    all.addAll(List.of("--json", "--cwd", work.toString(), "--backend", "command", "--program"));
    all.addAll(ScriptedAgent.command());
    CliRun run = CliRun.run(server, "", all.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return TestJson.JSON.readTree(run.stdout());
  }

  static List<String> states(AgentServer server, String id) throws Exception {
    CliRun run = CliRun.run(server, "", "schedule", "show", id, "--json");
    List<String> states = new ArrayList<>();
    for (JsonNode f : TestJson.JSON.readTree(run.stdout()).path("fires")) {
      states.add(0, f.path("state").asString());
    }
    return states;
  }

  @Test
  void firesMissedWhileDown_runOnceLateWithinGrace_orAreRecordedMissed() throws Exception {
    try (AgentServer server = new AgentServer(home, Map.of()).start()) {
      String late =
          add(server, "--every", "10m", "--missed", "run-late", "--grace", "1h")
              .path("id")
              .asString();
      String strict = add(server, "--every", "10m", "--missed", "skip").path("id").asString();
      server.stop();

      // Down past the due time (10 minutes) by five minutes.
      server.advanceClock(Duration.ofMinutes(15));
      server.start();
      Eventually.until(
          "the late run and the missed one",
          AgentServer.LIMIT,
          () ->
              states(server, late).contains("started")
                  && states(server, strict).contains("missed"));
      assertThat(states(server, late)).containsExactly("started");
      assertThat(states(server, strict)).containsExactly("missed");
      server.stop();

      // Down for two hours, beyond the grace: missed, once.
      server.advanceClock(Duration.ofHours(2));
      server.start();
      Eventually.until(
          "the second outage's fires",
          AgentServer.LIMIT,
          () -> states(server, late).size() == 2 && states(server, strict).size() == 2);
      assertThat(states(server, late)).containsExactly("started", "missed");
      assertThat(states(server, strict)).containsExactly("missed", "missed");
    }
  }
}
