package dev.cortex.e2e.agentserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.TestJson;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/** {@code cortex server status} and {@code cortex server stop} against a real agent server. */
class ServerStatusIT {
  @TempDir Path home;

  @Test
  void status_ofARunningServer_namesPidPortsUptimeDevicesAndSessions_thenStopEndsIt()
      throws Exception {
    try (AgentServer server =
        new AgentServer(home, Map.of()).machines("{\"machines\": {\"box1\": {}}}").start()) {
      CortexProcess.Finished status = CortexProcess.run(server.env, "server", "status", "--json");
      assertThat(status.exitCode()).as(status.stderr()).isZero();
      JsonNode json = TestJson.JSON.readTree(status.stdout());
      assertThat(json.path("running").asBoolean()).isTrue();
      assertThat(json.path("pid").asLong()).isEqualTo(server.process.pid());
      assertThat(json.path("webhook_port").asInt()).isEqualTo(server.webhookPort);
      assertThat(json.path("hub_port").asInt()).isEqualTo(server.hubPort);
      assertThat(json.path("uptime_seconds").asLong()).isNotNegative();
      assertThat(json.path("devices_registered").asInt()).isEqualTo(1);
      assertThat(json.path("devices_online").isArray()).isTrue();
      assertThat(json.path("sessions").path("total").asInt()).isZero();

      CortexProcess.Finished text = CortexProcess.run(server.env, "server", "status");
      assertThat(text.stdout())
          .startsWith("cortex server: running (ok), pid " + server.process.pid())
          .contains("webhook   127.0.0.1:" + server.webhookPort)
          .contains("devices   0 online of 1")
          .contains("sessions  0, 0 in a turn");

      CortexProcess.Finished stop = CortexProcess.run(server.env, "server", "stop");
      assertThat(stop.exitCode()).as(stop.stderr()).isZero();
      assertThat(stop.stderr()).contains("stopped (pid " + server.process.pid() + ")");
      assertThat(server.process.isAlive()).isFalse();
      assertThat(server.process.exitValue()).as("ended by SIGTERM, not killed").isEqualTo(143);

      CortexProcess.Finished after = CortexProcess.run(server.env, "server", "status");
      assertThat(after.exitCode()).isEqualTo(3);
      assertThat(after.stdout()).contains("not running");
      assertThat(CortexProcess.run(server.env, "server", "stop").exitCode()).isEqualTo(3);
    }
  }

  @Test
  void status_withNoServer_exitsThree() throws Exception {
    CortexProcess.Finished status =
        CortexProcess.run(CortexProcess.env(home), "server", "status", "--json");

    assertThat(status.exitCode()).isEqualTo(3);
    assertThat(TestJson.JSON.readTree(status.stdout()).path("running").asBoolean()).isFalse();
  }
}
