package dev.cortex.e2e.agentserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may reach the hub, as new users reach it: through a tunnel on another port, by names that the
 * server's own address does not spell, and never from a browser's page; what a refused device is
 * told, and what the server logs of each refusal.
 */
class HubAccessIT {
  static final String SHARED = "shared-token-for-tests-0123456789";
  static final String MACHINES =
      """
      {"machines": {"box1": {"platform": "linux"}, "winbox": {"platform": "windows"}}}
      """;

  @TempDir Path home;
  @TempDir Path deviceHome;

  AgentServer server(Map<String, String> env) throws Exception {
    Map<String, String> all = new HashMap<>(env);
    all.put("CORTEX_CLIENT_TOKEN", SHARED);
    return new AgentServer(home, all).machines(MACHINES);
  }

  /** A {@code cortex client} connecting to {@code url}, its stderr kept. */
  record Client(Process process, StringBuffer stderr) implements AutoCloseable {
    static Client start(Path home, String url, String name, String... extra) throws Exception {
      Map<String, String> env = new HashMap<>(CortexProcess.env(home));
      env.put("CORTEX_CLIENT_TOKEN", SHARED);
      List<String> args = new ArrayList<>(List.of("client", "--server", url, "--name", name));
      args.addAll(List.of(extra));
      StringBuffer stderr = new StringBuffer();
      return new Client(AgentServer.spawn(env, stderr, args.toArray(String[]::new)), stderr);
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  @Test
  void tunnelOnAnotherLocalPort_deviceEnrolsAndConnects() throws Exception {
    try (AgentServer server = server(Map.of()).start();
        Tunnel tunnel = Tunnel.to(server.hubPort)) {
      String code = server.enrol("box1");
      Map<String, String> env = new HashMap<>(CortexProcess.env(deviceHome));
      StringBuffer stderr = new StringBuffer();
      Process client =
          AgentServer.spawn(
              env,
              stderr,
              "client",
              "--server",
              "ws://127.0.0.1:" + tunnel.port(),
              "--name",
              "box1",
              "--enroll",
              code);
      try {
        Eventually.until(
            "box1 online through the tunnel; its log: " + stderr,
            AgentServer.LIMIT,
            () -> server.online("box1") || !client.isAlive());
        assertThat(server.online("box1")).as(stderr.toString()).isTrue();
      } finally {
        client.destroyForcibly();
      }
    }
  }

  @Test
  void nonLoopbackBind_answersToNamesItsAddressDoesNotSpell() throws Exception {
    Optional<String> address = RawHub.nonLoopbackAddress();
    assumeTrue(address.isPresent(), "this machine has a non-loopback address");
    try (AgentServer server = server(Map.of("CORTEX_CLIENT_BIND", address.get())).start()) {
      for (String name : List.of("vm:3002", "gpu-server.vpn:3002", "gpu-server")) {
        String code = server.enrol("box1");

        RawHub.Answer answer =
            RawHub.enrol(address.get(), server.hubPort, name, "box1", code, Map.of());

        assertThat(answer.status()).as("Host %s: %s", name, answer.body()).isEqualTo(200);
        assertThat(answer.json().path("credential").asString()).startsWith("cxd_");
      }
    }
  }

  @Test
  void hubHostnames_refuseOtherNames_theDeviceSaysWhyAndStops() throws Exception {
    Optional<String> address = RawHub.nonLoopbackAddress();
    assumeTrue(address.isPresent(), "this machine has a non-loopback address");
    Files.createDirectories(home.resolve("config"));
    Files.writeString(
        home.resolve("config/cortex.toml"), "[server]\nhub_hostnames = [\"gpu-server\"]\n");
    try (AgentServer server = server(Map.of("CORTEX_CLIENT_BIND", "0.0.0.0")).start();
        Client client =
            Client.start(deviceHome, "ws://" + address.get() + ":" + server.hubPort, "box1")) {
      assertThat(client.process().waitFor(60, TimeUnit.SECONDS))
          .as("the client stops; its log: %s", client.stderr())
          .isTrue();

      assertThat(client.process().exitValue()).as(client.stderr().toString()).isEqualTo(3);
      assertThat(client.stderr().toString())
          .contains("HOST_NOT_ALLOWED")
          .contains("hub_hostnames")
          .contains("not retrying");
      Eventually.until(
          "the refusal in the server's log",
          AgentServer.LIMIT,
          () -> server.stderr.toString().contains("HOST_NOT_ALLOWED"));
      assertThat(server.stderr.toString()).doesNotContain(SHARED);
      String code = server.enrol("box1");
      assertThat(
              RawHub.enrol(address.get(), server.hubPort, "gpu-server:443", "box1", code, Map.of())
                  .status())
          .as("a listed name, on whatever port a forward gives it")
          .isEqualTo(200);
    }
  }

  @Test
  void requestsFromBrowsers_areRefused_andLoggedOncePerCauseAndPeer() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      String code = server.enrol("box1");
      Map<String, String> origin = Map.of("Origin", "http://127.0.0.1:" + server.hubPort);

      RawHub.Answer enrol = RawHub.enrolLocally(server.hubPort, "box1", code, origin);
      int first = upgradeWithOrigin(server);
      int second = upgradeWithOrigin(server);

      assertThat(enrol.status()).isEqualTo(403);
      assertThat(enrol.errorCode()).isEqualTo("ORIGIN_NOT_ALLOWED");
      assertThat(enrol.errorMessage()).contains("Origin");
      assertThat(first).isEqualTo(403);
      assertThat(second).isEqualTo(403);
      Eventually.until(
          "the refusals in the server's log",
          AgentServer.LIMIT,
          () -> refusals(server, "ORIGIN_NOT_ALLOWED").size() == 2);
      List<String> logged = refusals(server, "ORIGIN_NOT_ALLOWED");
      assertThat(logged).as("one line per cause and peer").hasSize(2);
      assertThat(logged.get(0)).contains("an enrolment from 127.0.0.1");
      assertThat(logged.get(1)).contains("from 127.0.0.1 for device box1");
      assertThat(server.stderr.toString()).doesNotContain(SHARED).doesNotContain(code);
    }
  }

  /** The lines of the server's log that tell of refusals with {@code code}, at warning level. */
  static List<String> refusals(AgentServer server, String code) {
    return server
        .stderr
        .toString()
        .lines()
        .filter(line -> line.contains("hub refused") && line.contains(code))
        .toList();
  }

  /** The status of an upgrade to the hub with a good credential and a browser's Origin. */
  static int upgradeWithOrigin(AgentServer server) throws Exception {
    try {
      HttpClient.newHttpClient()
          .newWebSocketBuilder()
          .header("Authorization", "Bearer " + SHARED)
          .header("X-Cortex-Device", "box1")
          .header("Origin", "http://127.0.0.1:" + server.hubPort)
          .buildAsync(URI.create(server.hubUrl() + "/hub"), new WebSocket.Listener() {})
          .get(30, TimeUnit.SECONDS)
          .abort();
      return 101;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof WebSocketHandshakeException handshake) {
        HttpResponse<?> response = handshake.getResponse();
        return response.statusCode();
      }
      throw e;
    }
  }

  @Test
  void deviceReportingAnotherPlatform_isRefusedSayingBoth() throws Exception {
    try (AgentServer server = server(Map.of()).start();
        Client client = Client.start(deviceHome, server.hubUrl(), "winbox")) {
      Eventually.until(
          "the refusal on the client; its log: " + client.stderr(),
          AgentServer.LIMIT,
          () -> client.stderr().toString().contains("windows"));

      assertThat(client.stderr().toString()).contains("windows").contains("linux");
      assertThat(server.online("winbox")).isFalse();
      Eventually.until(
          "the refusal in the server's log",
          AgentServer.LIMIT,
          () -> !refusals(server, "4009").isEmpty());
      assertThat(refusals(server, "4009").get(0)).contains("for device winbox");
    }
  }

  @Test
  void malformedMessages_areDropped_theConnectionAndItsCommandStay() throws Exception {
    try (AgentServer server = server(Map.of()).start()) {
      RawDevice device = RawDevice.connect(server, "box1", SHARED);
      device.send(
          "{\"type\":\"hello\",\"protocol\":1,\"device\":\"box1\",\"platform\":\"linux\","
              + "\"arch\":\"amd64\",\"hostname\":\"h\",\"version\":\"1\",\"capabilities\":[\"bash\"]}");
      assertThat(device.next()).contains("\"welcome\"");
      String body =
          "{\"command_id\":\"kept\",\"device\":\"box1\",\"action\":\"bash\",\"params\":"
              + "{\"command\":\"true\",\"timeout_seconds\":60},\"timeout_millis\":60000}";
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
      assertThat(device.next()).contains("\"command\"").contains("\"kept\"");

      device.send("{\"type\":\"result\",\"result\":{\"exit_code\":1}}");
      device.send("{\"type\":\"output\",\"stream\":\"stdout\",\"data\":\"x\"}");
      device.send("{\"type\":\"result\",\"id\":[1,2]}");
      device.send("{\"type\":\"heartbeat\",\"sent_at_millis\":7}");
      assertThat(device.next()).as("the heartbeat's echo").contains("\"heartbeat\"");
      device.send(
          "{\"type\":\"result\",\"id\":\"kept\",\"result\":{\"exit_code\":0,\"output\":\"fine\","
              + "\"output_bytes\":4}}");

      assertThat(pending.get(60, TimeUnit.SECONDS).body()).contains("fine");
      assertThat(device.closed()).as("the connection stays").isNotDone();
      Eventually.until(
          "the malformed message in the server's log",
          AgentServer.LIMIT,
          () -> server.stderr.toString().contains("malformed message"));
      String log = server.stderr.toString();
      assertThat(log).doesNotContain("NullPointerException");
      assertThat(log.split("malformed message", -1).length - 1)
          .as("logged once: %s", log)
          .isEqualTo(1);
      device.abort();
    }
  }
}
