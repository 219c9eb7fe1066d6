package dev.cortex.e2e.agentserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The agent server as a process: what it refuses at start, who it lets in on the webhook and the
 * hub (every refusal happens before a handler runs), how it shuts down, and how devices come and go
 * (enrolment, revocation, a device that dies mid-command, a server restart).
 */
class AgentServerIT {
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
  void start_writesTokenFileAndClientConfigs_ownerOnly() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      Path token = home.resolve("config").resolve("webhook-token");
      assertThat(server.token()).hasSizeGreaterThanOrEqualTo(32);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(token)))
          .isEqualTo("rw-------");
      JsonNode direct =
          TestJson.JSON.readTree(Files.readString(home.resolve("config/mcp-config.json")));
      assertThat(direct.path("mcpServers").path("cortex-core").path("args").toString())
          .contains("core,ext");
      assertThat(home.resolve("config/mcp-config-web.json")).exists();
      HttpResponse<String> health =
          AgentServer.HTTP.send(
              HttpRequest.newBuilder(
                      URI.create("http://127.0.0.1:" + server.webhookPort + "/health"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(TestJson.JSON.readTree(health.body()).path("status").asString()).isEqualTo("ok");
      assertThat(health.body()).doesNotContain(server.token());
    }
  }

  @Test
  void start_immutableHome_keepsItsFiles_andNeedsAGivenToken() throws Exception {
    Map<String, String> immutable = Map.of("CORTEX_CONFIG_IMMUTABLE", "1");
    CortexProcess.Finished refused = runServer(immutable);
    assertThat(refused.exitCode()).isEqualTo(2);
    assertThat(refused.stderr())
        .contains("CORTEX_CONFIG_IMMUTABLE=1")
        .contains("CORTEX_WEBHOOK_TOKEN");

    try (AgentServer server =
        server(
                Map.of(
                    "CORTEX_CONFIG_IMMUTABLE",
                    "1",
                    "CORTEX_WEBHOOK_TOKEN",
                    "a-given-token-0123456789"))
            .start()) {
      assertThat(home.resolve("config/mcp-config.json")).doesNotExist();
      assertThat(home.resolve("config/webhook-token")).doesNotExist();
      assertThat(
              server
                  .post(
                      "/webhook/remote-command/cancel",
                      "{\"command_id\":\"x\"}",
                      Map.of("x-cortex-token", "a-given-token-0123456789"))
                  .statusCode())
          .isEqualTo(200);
    }
  }

  @Test
  void start_refusesUnsafeOrWrongSettings_namingThem() throws Exception {
    Files.createDirectories(home.resolve("config"));
    Path toml = home.resolve("config/cortex.toml");
    Files.writeString(toml, "[server]\nwebhook_bind = \"0.0.0.0\"\n");
    assertThat(runServer(Map.of()).stderr()).contains("[server] webhook_bind").contains("loopback");

    Files.writeString(toml, "[server]\nhub_prot = 3002\n");
    CortexProcess.Finished unknown = runServer(Map.of());
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.stderr())
        .contains(toml.toString())
        .contains("[server] hub_prot")
        .contains("hub_port");

    Files.delete(toml);
    assertThat(runServer(Map.of("CORTEX_WEBHOOK_TOKEN", "short")).stderr()).contains("at least 16");
    Files.writeString(home.resolve("machines.json"), "{\"machines\": {\"bad name\": {}}}");
    assertThat(runServer(Map.of()).stderr())
        .contains("machines.json")
        .contains("machines.bad name");
  }

  CortexProcess.Finished runServer(Map<String, String> extra) throws Exception {
    Map<String, String> env = new java.util.HashMap<>(CortexProcess.env(home));
    env.putAll(extra);
    return CortexProcess.run(env, "server", "--webhook-port=0", "--hub-port=0");
  }

  @Test
  void webhook_refusesMissingWrongOrQueryTokens_andForeignHostsOrOrigins() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      String body =
          "{\"command_id\":\"c\",\"device\":\"box1\",\"action\":\"bash\",\"params\":{},\"timeout_millis\":1000}";
      String token = server.token();
      assertThat(server.post("/webhook/remote-command", body, Map.of()).statusCode())
          .isEqualTo(401);
      assertThat(
              server
                  .post(
                      "/webhook/remote-command",
                      body,
                      Map.of("x-cortex-token", "wrong-token-0123456789"))
                  .statusCode())
          .isEqualTo(401);
      assertThat(server.post("/webhook/remote-command?token=" + token, body, Map.of()).statusCode())
          .isEqualTo(401);
      HttpResponse<String> inQuery =
          server.post("/webhook/remote-command?x=" + token, body, Map.of("x-cortex-token", token));
      assertThat(inQuery.statusCode()).isEqualTo(401);
      assertThat(inQuery.body()).contains("not accepted in the query string").doesNotContain(token);
      assertThat(
              server
                  .post(
                      "/webhook/remote-command",
                      body,
                      Map.of("x-cortex-token", token, "Origin", "http://evil.example"))
                  .statusCode())
          .isEqualTo(403);
      assertThat(
              raw(
                  server.webhookPort,
                  "POST /webhook/remote-command HTTP/1.1\r\nHost: evil.example:"
                      + server.webhookPort
                      + "\r\nx-cortex-token: "
                      + token
                      + "\r\nContent-Length: 2\r\n\r\n{}"))
          .startsWith("HTTP/1.1 403");
      HttpResponse<String> newer =
          server.post(
              "/webhook/remote-command",
              body,
              Map.of("x-cortex-token", token, "x-cortex-protocol", "2"));
      assertThat(newer.statusCode()).isEqualTo(409);
      assertThat(newer.body()).contains("PROTOCOL_MISMATCH");
      HttpResponse<String> good =
          server.post("/webhook/remote-command", body, Map.of("x-cortex-token", token));
      assertThat(good.body()).contains("DEVICE_OFFLINE");
    }
  }

  /** Sends raw HTTP (to set a Host header the JDK client will not) and returns the status line. */
  static String raw(int port, String request) throws IOException {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.getOutputStream().write(request.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      return new String(
          socket.getInputStream().readNBytes(12), java.nio.charset.StandardCharsets.US_ASCII);
    }
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
  void revoke_dropsTheConnectedDevice_whichStopsRetrying() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      AgentServer.Device device =
          server.connect("box1", deviceHome, Map.of(), "--enroll", server.enrol("box1"));

      CortexProcess.Finished revoked = CortexProcess.run(server.env, "server", "revoke", "box1");

      assertThat(revoked.stderr()).contains("dropped its connection");
      server.awaitOnline("box1", false);
      assertThat(device.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(device.process.exitValue()).isEqualTo(1);
      assertThat(device.stderr.toString()).contains("revoked");
    }
  }

  @Test
  void deviceDiesMidCommand_theCallFailsAtOnce_andNothingHangs() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      AgentServer.Device device =
          server.connect("box1", deviceHome, Map.of(), "--enroll", server.enrol("box1"));
      CompletableFuture<HttpResponse<String>> pending = sleepOn(server, "box1");

      device.process.destroyForcibly();
      HttpResponse<String> answer = pending.get(60, TimeUnit.SECONDS);

      assertThat(answer.body())
          .contains("DEVICE_DISCONNECTED")
          .contains("may or may not have completed");
    }
  }

  /** Starts {@code sleep 300} on {@code device} through the webhook, once it runs there. */
  static CompletableFuture<HttpResponse<String>> sleepOn(AgentServer server, String device) {
    String body =
        "{\"command_id\":\"sleep-"
            + System.nanoTime()
            + "\",\"device\":\""
            + device
            + "\",\"action\":\"bash\",\"params\":{\"command\":\"sleep 300\",\"timeout_seconds\":600},\"timeout_millis\":700000}";
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
    Eventually.until("the command to run", AgentServer.LIMIT, () -> runningOn(server, device) == 1);
    return pending;
  }

  static int runningOn(AgentServer server, String name) {
    try {
      for (JsonNode device : server.devices()) {
        if (device.path("name").asString().equals(name)) {
          return device.path("running").asInt(0);
        }
      }
    } catch (Exception e) {
      return -1;
    }
    return -1;
  }

  @Test
  void sigterm_failsPendingCommandsClearly_removesTheServerFile_andStopsCleanly() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      server.connect("box1", deviceHome, Map.of(), "--enroll", server.enrol("box1"));
      CompletableFuture<HttpResponse<String>> pending = sleepOn(server, "box1");

      int exit = server.stop();

      assertThat(pending.get(60, TimeUnit.SECONDS).body()).contains("shutting down");
      assertThat(exit).isEqualTo(143);
      assertThat(server.stderr.toString()).contains("agent server stopped");
      assertThat(home.resolve("data/server.json")).doesNotExist();
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
      assertThat(plain)
          .as("plain ws to the TLS port")
          .failsWithin(java.time.Duration.ofSeconds(30));
      device.close();
    }
  }

  @Test
  void detach_startsTheServerInTheBackground_withItsLog() throws Exception {
    Files.writeString(home.resolve("machines.json"), MACHINES);
    Map<String, String> env = CortexProcess.env(home);
    CortexProcess.Finished run =
        CortexProcess.run(env, "server", "--detach", "--webhook-port=0", "--hub-port=0");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode self = TestJson.JSON.readTree(Files.readString(home.resolve("data/server.json")));
    long pid = self.path("pid").asLong();
    assertThat(run.stderr()).contains("started in the background (pid " + pid + ")");
    try {
      HttpResponse<String> health =
          AgentServer.HTTP.send(
              HttpRequest.newBuilder(
                      URI.create(
                          "http://127.0.0.1:" + self.path("webhook_port").asInt() + "/health"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(Files.readString(home.resolve("logs/server.log")))
          .contains("agent server")
          .contains("up:");
    } finally {
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroy);
      Eventually.until(
          "the detached server to stop",
          AgentServer.LIMIT,
          () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
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

  @Test
  void toolsWithoutADaemon_sayThatCortexServerIsNotRunning() throws Exception {
    Map<String, String> env = new java.util.HashMap<>(CortexProcess.env(home));
    env.put("WEBHOOK_PORT", Integer.toString(freePort()));
    env.put("CORTEX_WEBHOOK_TOKEN", "some-token-0123456789");
    CortexProcess.Finished run =
        CortexProcess.run(
            env, "tools", "call", "remote_bash", "{\"device\":\"box1\",\"command\":\"true\"}");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.stdout())
        .contains("UNAVAILABLE")
        .contains("'cortex server'")
        .doesNotContain("some-token");
  }

  static int freePort() throws IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
