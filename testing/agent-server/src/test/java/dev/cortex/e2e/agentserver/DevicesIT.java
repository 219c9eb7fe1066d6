package dev.cortex.e2e.agentserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How devices come and go on a running agent server, each a real {@code cortex client}: who the hub
 * lets in (every refusal happens before the upgrade), enrolment and revocation, a device that dies
 * mid-command, duplicates, silence, TLS, a server restart and an edited machines.json.
 */
class DevicesIT {
  static final String MACHINES =
      """
      {"machines": {"box1": {"platform": "linux"}, "box2": {"platform": "linux"}}}
      """;

  @TempDir Path home;
  @TempDir Path deviceHome;
  @TempDir Path otherHome;

  AgentServer server(Map<String, String> env) throws IOException {
    return new AgentServer(home, env).machines(MACHINES);
  }

  @Test
  void hub_refusesBadCredentials_beforeTheUpgrade() throws Exception {
    try (AgentServer server =
        server(Map.of("CORTEX_CLIENT_TOKEN", "shared-token-0123456789")).start()) {
      String code = server.enrol("box1");
      HttpResponse<String> enrolled =
          AgentServer.HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.hubPort + "/enrol"))
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"device\":\"box1\",\"code\":\"" + code + "\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      String credential = TestJson.JSON.readTree(enrolled.body()).path("credential").asString();
      HttpResponse<String> reused =
          AgentServer.HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.hubPort + "/enrol"))
                  .POST(
                      HttpRequest.BodyPublishers.ofString(
                          "{\"device\":\"box1\",\"code\":\"" + code + "\"}"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());

      assertThat(credential).startsWith("cxd_");
      assertThat(reused.statusCode()).as("a code works once").isEqualTo(401);
      assertThat(upgrade(server, null, null)).isEqualTo(401);
      assertThat(upgrade(server, "box1", "wrong-credential")).isEqualTo(401);
      assertThat(upgrade(server, "box2", credential))
          .as("another device's credential")
          .isEqualTo(401);
      assertThat(upgrade(server, "stranger", "shared-token-0123456789"))
          .as("not registered")
          .isEqualTo(403);
      assertThat(upgrade(server, "box1", credential)).isEqualTo(101);

      CortexProcess.Finished revoked = CortexProcess.run(server.env, "server", "revoke", "box1");
      assertThat(revoked.exitCode()).as(revoked.stderr()).isZero();
      assertThat(upgrade(server, "box1", credential)).as("revoked").isEqualTo(401);
    }
  }

  /** The HTTP status of a WebSocket upgrade to the hub (101 when it succeeds). */
  static int upgrade(AgentServer server, String device, String secret) {
    WebSocket.Builder builder = HttpClient.newHttpClient().newWebSocketBuilder();
    if (device != null) {
      builder.header("X-Cortex-Device", device);
    }
    if (secret != null) {
      builder.header("Authorization", "Bearer " + secret);
    }
    try {
      WebSocket socket =
          builder
              .buildAsync(URI.create(server.hubUrl() + "/hub"), new WebSocket.Listener() {})
              .get(30, TimeUnit.SECONDS);
      socket.abort();
      return 101;
    } catch (java.util.concurrent.ExecutionException e) {
      if (e.getCause() instanceof java.net.http.WebSocketHandshakeException handshake) {
        return handshake.getResponse().statusCode();
      }
      throw new AssertionError(e);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void commandPastItsDeadlineOnTheServersClock_failsAndIsStoppedOnTheDevice() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      server.connect("box1", deviceHome, Map.of(), "--enroll", server.enrol("box1"));
      Path pid = deviceHome.resolve("deadline.pid");
      String body =
          "{\"command_id\":\"deadline\",\"device\":\"box1\",\"action\":\"bash\",\"params\":"
              + "{\"command\":\"echo $$ > "
              + pid
              + "; exec sleep 300\",\"timeout_seconds\":600},\"timeout_millis\":6000}";
      CompletableFuture<HttpResponse<String>> pending =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return server.post(
                      "/webhook/remote-command", body, Map.of("x-cortex-token", server.token()));
                } catch (Exception e) {
                  throw new CompletionException(e);
                }
              });
      Eventually.until("the command to run", AgentServer.LIMIT, () -> Files.isRegularFile(pid));
      long shell = Long.parseLong(Files.readString(pid).strip());

      // Within the silence limit, so that the device is not evicted: only the deadline falls.
      server.advanceClock(Duration.ofSeconds(7));

      assertThat(pending.get(60, TimeUnit.SECONDS).body())
          .contains("UNAVAILABLE")
          .contains("Device 'box1' gave no result within 6 s; the command was told to stop.");
      Eventually.until(
          "the device to stop the command",
          AgentServer.LIMIT,
          () -> ProcessHandle.of(shell).map(h -> !h.isAlive()).orElse(true));
      assertThat(server.online("box1")).isTrue();
    }
  }

  @Test
  void revoke_dropsTheConnectedDevice_whichStopsRetrying() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      AgentServer.Device device =
          server.connect("box1", deviceHome, Map.of(), "--enroll", server.enrol("box1"));

      CortexProcess.Finished revoked = CortexProcess.run(server.env, "server", "revoke", "box1");

      assertThat(revoked.stderr()).contains("dropped its connection");
      server.awaitOnline("box1", false);
      assertThat(device.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(device.process.exitValue()).as("refused for good").isEqualTo(3);
      assertThat(device.stderr.toString()).contains("revoked").contains("not retrying");
    }
  }

  @Test
  void deviceDiesMidCommand_theCallFailsAtOnce_andNothingHangs() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      AgentServer.Device device =
          server.connect("box1", deviceHome, Map.of(), "--enroll", server.enrol("box1"));
      CompletableFuture<HttpResponse<String>> pending = WebhookCommands.sleepOn(server, "box1");

      device.process.destroyForcibly();
      HttpResponse<String> answer = pending.get(60, TimeUnit.SECONDS);

      assertThat(answer.body())
          .contains("DEVICE_DISCONNECTED")
          .contains("may or may not have completed");
    }
  }

  @Test
  void serverRestart_devicesReconnectOnTheirOwn() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      server.connect("box1", deviceHome, Map.of(), "--enroll", server.enrol("box1"));
      int webhook = server.webhookPort;
      int hub = server.hubPort;

      assertThat(server.stop()).isEqualTo(143);
      server.start(webhook, hub);

      server.awaitOnline("box1", true);
      String body =
          "{\"command_id\":\"after\",\"device\":\"box1\",\"action\":\"bash\",\"params\":{\"command\":\"echo back\",\"timeout_seconds\":30},\"timeout_millis\":60000}";
      assertThat(
              server
                  .post("/webhook/remote-command", body, Map.of("x-cortex-token", server.token()))
                  .body())
          .contains("back");
    }
  }

  @Test
  void duplicateDevice_isRefused_whileTheFirstStaysConnected() throws Exception {
    try (AgentServer server =
        server(Map.of("CORTEX_CLIENT_TOKEN", "shared-token-0123456789")).start()) {
      server.connect("box2", deviceHome, Map.of("CORTEX_CLIENT_TOKEN", "shared-token-0123456789"));
      AgentServer.Device second =
          AgentServer.Device.start(
              server, "box2", otherHome, Map.of("CORTEX_CLIENT_TOKEN", "shared-token-0123456789"));

      Eventually.until(
          "the duplicate to be refused",
          AgentServer.LIMIT,
          () -> second.stderr.toString().contains("already connected"));
      second.close();
      assertThat(server.online("box2")).isTrue();
    }
  }

  @Test
  void silentDevice_isEvictedAfter15Seconds_andComesBackWhenItWakes() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      AgentServer.Device device =
          server.connect("box1", deviceHome, Map.of(), "--enroll", server.enrol("box1"));
      long pid = device.process.pid();

      new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor();
      server.awaitOnline("box1", false);
      new ProcessBuilder("kill", "-CONT", Long.toString(pid)).start().waitFor();

      server.awaitOnline("box1", true);
    }
  }

  @Test
  void hubWithTls_devicesEnrolAndConnectOverWss(@TempDir Path keys) throws Exception {
    Path store = keys.resolve("hub.p12");
    Path cert = keys.resolve("hub.pem");
    String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
    assertThat(
            new ProcessBuilder(
                    keytool,
                    "-genkeypair",
                    "-alias",
                    "hub",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-dname",
                    "CN=localhost",
                    "-ext",
                    "SAN=ip:127.0.0.1,dns:localhost",
                    "-validity",
                    "2",
                    "-storetype",
                    "PKCS12",
                    "-keystore",
                    store.toString(),
                    "-storepass",
                    "hub-secret")
                .inheritIO()
                .start()
                .waitFor())
        .isZero();
    assertThat(
            new ProcessBuilder(
                    keytool,
                    "-exportcert",
                    "-rfc",
                    "-alias",
                    "hub",
                    "-keystore",
                    store.toString(),
                    "-storepass",
                    "hub-secret",
                    "-file",
                    cert.toString())
                .inheritIO()
                .start()
                .waitFor())
        .isZero();
    Files.createDirectories(home.resolve("config"));
    Files.writeString(
        home.resolve("config/cortex.toml"), "[server]\nhub_keystore = \"" + store + "\"\n");

    try (AgentServer server =
        server(Map.of("CORTEX_HUB_KEYSTORE_PASSWORD", "hub-secret")).start()) {
      AgentServer.Device device =
          AgentServer.Device.start(
              server,
              "box1",
              deviceHome,
              Map.of(),
              "--enroll",
              server.enrol("box1"),
              "--ca",
              cert.toString());
      server.awaitOnline("box1", true);
      assertThat(server.hubUrl()).startsWith("wss://");
      java.util.concurrent.CompletableFuture<WebSocket> plain =
          HttpClient.newHttpClient()
              .newWebSocketBuilder()
              .buildAsync(
                  URI.create("ws://127.0.0.1:" + server.hubPort + "/hub"),
                  new WebSocket.Listener() {});
      assertThat(plain).as("plain ws to the TLS port").failsWithin(Duration.ofSeconds(30));
      device.close();
    }
  }

  @Test
  void machinesJson_editedWhileRunning_takesEffect() throws Exception {
    String shared = "shared-token-0123456789";
    try (AgentServer server =
        new AgentServer(home, Map.of("CORTEX_CLIENT_TOKEN", shared))
            .machines("{\"machines\": {\"box1\": {}}}")
            .start()) {
      server.connect("box1", deviceHome, Map.of("CORTEX_CLIENT_TOKEN", shared));
      AgentServer.Device box2 =
          AgentServer.Device.start(
              server, "box2", otherHome, Map.of("CORTEX_CLIENT_TOKEN", shared));
      Eventually.until(
          "box2 to be refused",
          AgentServer.LIMIT,
          () -> box2.stderr.toString().contains("HTTP 403"));

      Files.writeString(
          home.resolve("machines.json"), "{\"machines\": {\"box2\": {\"platform\": \"linux\"}}}");

      server.awaitOnline("box2", true);
      server.awaitOnline("box1", false);
      Files.writeString(
          home.resolve("machines.json"), "{\"machines\": {\"box2\": {\"colour\": 1}}}");
      Eventually.until(
          "the bad edit to be reported",
          AgentServer.LIMIT,
          () -> server.stderr.toString().contains("unknown key 'colour'"));
      assertThat(server.online("box2")).as("the last good registry stays in force").isTrue();
      box2.close();
    }
  }
}
