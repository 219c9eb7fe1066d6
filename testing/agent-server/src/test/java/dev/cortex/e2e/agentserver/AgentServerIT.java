package dev.cortex.e2e.agentserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The agent server as a process: what it refuses at start, who it lets in on the webhook (every
 * refusal happens before a handler runs), how it shuts down, detaches, and what tools say without
 * it. How devices come and go is {@link DevicesIT}.
 */
class AgentServerIT {
  static final String MACHINES =
      """
      {"machines": {"box1": {"platform": "linux"}, "box2": {"platform": "linux"}}}
      """;

  @TempDir Path home;
  @TempDir Path deviceHome;

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

  /**
   * Regression: a second server started on a home whose server runs recovered the first one's
   * running sessions as cut off (idle, "interrupted" in their transcripts) before its ports failed
   * to bind.
   */
  @Test
  void start_onAHomeWhoseServerRuns_isRefused_andLeavesItsSessionsAlone() throws Exception {
    try (AgentServer server = server(Map.of()).start();
        SessionApi api = new SessionApi(server)) {
      Path agent = deviceHome.resolve("holding.sh");
      Files.writeString(
          agent,
          """
          #!/bin/sh
          read -r line
          echo '{"type":"text","text":"holding"}'
          sleep 600
          """);
      assertThat(agent.toFile().setExecutable(true)).isTrue();
      String id = api.create(List.of(agent.toString()), deviceHome, Map.of()).path("id").asString();
      api.send(id, "hold on");
      api.awaitEntry(id, SessionApi.said("holding"), "the turn running");

      CortexProcess.Finished second = runServer(Map.of());

      assertThat(second.exitCode()).isNotZero();
      assertThat(second.stderr())
          .contains("An agent server already runs on this home (pid ")
          .doesNotContain("Exception");
      assertThat(api.show(id).path("state").asString()).isEqualTo("running");
      assertThat(api.transcript(id).toString()).doesNotContain("interrupted");
    }
  }

  @Test
  void sigterm_failsPendingCommandsClearly_removesTheServerFile_andStopsCleanly() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      server.connect("box1", deviceHome, Map.of(), "--enroll", server.enrol("box1"));
      CompletableFuture<HttpResponse<String>> pending = WebhookCommands.sleepOn(server, "box1");

      int exit = server.stop();

      assertThat(pending.get(60, TimeUnit.SECONDS).body()).contains("shutting down");
      assertThat(exit).isEqualTo(143);
      assertThat(server.stderr.toString()).contains("agent server stopped");
      assertThat(home.resolve("data/server.json")).doesNotExist();
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
  void toolsWithoutADaemon_sayThatCortexServerIsNotRunning() throws Exception {
    Map<String, String> env = new java.util.HashMap<>(CortexProcess.env(home));
    env.put("WEBHOOK_PORT", Integer.toString(freePort()));
    env.put("CORTEX_WEBHOOK_TOKEN", "some-token-0123456789");
    CortexProcess.Finished run =
        CortexProcess.run(
            env,
            "tools",
            "call",
            "--bundles",
            "core",
            "remote_bash",
            "{\"device\":\"box1\",\"command\":\"true\"}");

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
