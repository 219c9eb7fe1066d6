package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Deadline;
import dev.cortex.http.HttpHost;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import dev.cortex.storage.Database;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.MovableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.websocket.api.Callback;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.client.ClientUpgradeRequest;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hub's endpoint over a real WebSocket on loopback: what a device's hello must be, what the hub
 * answers, how frames reach the commands they belong to, and what a socket that closes or never
 * says hello comes to. The hub's clock is the test's.
 */
class DeviceSocketListenerTest {
  static final String SHARED = "shared-token-for-tests-0123456789";
  static final Duration WAIT = Duration.ofSeconds(20);

  @TempDir Path dir;
  final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
  Database database;
  DeviceHub hub;
  HubRoutes routes;
  HttpHost http;
  WebSocketClient client;

  @BeforeEach
  void start() throws Exception {
    Machines machines = Machines.parse("{\"machines\": {\"box1\": {}, \"box2\": {}}}");
    database = new Database(dir, List.of(DeviceCredentials.area()), Clock.systemUTC());
    hub = new DeviceHub(() -> machines, clock, DeviceSettings.DEFAULTS);
    routes =
        new HubRoutes(
            hub,
            new DeviceCredentials(() -> database, clock),
            SHARED,
            "9.9.9",
            HubHosts.of("127.0.0.1", List.of()));
    http =
        HttpHost.builder("hub-test")
            .connector("hub", "127.0.0.1", 0, null)
            .route("hub", Hub.PATH, routes::websocket)
            .start();
    client = new WebSocketClient();
    client.start();
  }

  @AfterEach
  void stop() throws Exception {
    client.stop();
    hub.shutdown();
    http.stop(Duration.ofSeconds(1));
    database.close();
  }

  /** The device's end: what it receives, and how the hub closed it (public, for Jetty). */
  public static final class DeviceEnd implements Session.Listener.AutoDemanding {
    final BlockingQueue<HubMessage> received = new LinkedBlockingQueue<>();
    final CompletableFuture<Integer> closed = new CompletableFuture<>();
    volatile String closeReason;
    volatile Session session;

    @Override
    public void onWebSocketOpen(Session opened) {
      session = opened;
    }

    @Override
    public void onWebSocketText(String text) {
      received.add(WireJson.read(text));
    }

    @Override
    public void onWebSocketClose(int code, String reason) {
      closeReason = reason;
      closed.complete(code);
    }

    void send(HubMessage message) {
      session.sendText(WireJson.write(message), Callback.NOOP);
    }

    void sendText(String text) {
      session.sendText(text, Callback.NOOP);
    }

    <T extends HubMessage> T next(Class<T> type) throws InterruptedException {
      HubMessage message = received.poll(WAIT.toSeconds(), TimeUnit.SECONDS);
      assertThat(message).as("a %s from the hub", type.getSimpleName()).isInstanceOf(type);
      return type.cast(message);
    }

    int closeCode() throws Exception {
      return closed.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }
  }

  DeviceEnd connect(String upgradeDevice) throws Exception {
    DeviceEnd end = new DeviceEnd();
    ClientUpgradeRequest request = new ClientUpgradeRequest();
    request.setHeader("Authorization", "Bearer " + SHARED);
    if (upgradeDevice != null) {
      request.setHeader(Hub.DEVICE_HEADER, upgradeDevice);
    }
    client
        .connect(end, URI.create("ws://127.0.0.1:" + http.port("hub") + Hub.PATH), request)
        .get(WAIT.toSeconds(), TimeUnit.SECONDS);
    return end;
  }

  static HubMessage.Hello hello(String device, int protocol) {
    return new HubMessage.Hello(protocol, device, "linux", "amd64", "host", "1.0", List.of("bash"));
  }

  DeviceEnd welcomed(String device) throws Exception {
    DeviceEnd end = connect(device);
    end.send(hello(device, Hub.VERSION));
    end.next(HubMessage.Welcome.class);
    return end;
  }

  @Test
  void hello_ofARegisteredDevice_isWelcomedAndItsHeartbeatsEchoed() throws Exception {
    DeviceEnd end = connect("box1");

    end.send(hello("box1", Hub.VERSION));

    HubMessage.Welcome welcome = end.next(HubMessage.Welcome.class);
    assertThat(welcome.protocol()).isEqualTo(Hub.VERSION);
    assertThat(welcome.serverVersion()).isEqualTo("9.9.9");
    assertThat(welcome.heartbeatSeconds()).isEqualTo(5);
    assertThat(hub.link("box1")).isNotNull();

    clock.advance(Duration.ofSeconds(10));
    end.send(new HubMessage.Heartbeat(42));
    assertThat(end.next(HubMessage.Heartbeat.class).sentAtMillis()).isEqualTo(42);
    Eventually.until(
        "the hub hears the heartbeat",
        WAIT,
        () -> hub.link("box1").lastHeard().equals(clock.instant()));
  }

  @Test
  void hello_ofAnotherProtocolVersion_isClosedSayingSo() throws Exception {
    DeviceEnd end = connect("box1");

    end.send(hello("box1", Hub.VERSION + 1));

    assertThat(end.closeCode()).isEqualTo(Hub.CLOSE_PROTOCOL_VERSION);
    assertThat(end.closeReason).contains("this hub speaks protocol 1");
    assertThat(hub.online()).isEmpty();
  }

  @Test
  void firstMessage_thatIsNoHello_isClosedAsABadHello() throws Exception {
    DeviceEnd unreadable = connect("box1");
    unreadable.sendText("not json");
    assertThat(unreadable.closeCode()).isEqualTo(Hub.CLOSE_BAD_HELLO);

    DeviceEnd heartbeat = connect("box1");
    heartbeat.send(new HubMessage.Heartbeat(1));
    assertThat(heartbeat.closeCode()).isEqualTo(Hub.CLOSE_BAD_HELLO);
  }

  @Test
  void hello_namingAnotherDeviceThanTheUpgrade_isClosedAsABadHello() throws Exception {
    DeviceEnd end = connect("box1");

    end.send(hello("box2", Hub.VERSION));

    assertThat(end.closeCode()).isEqualTo(Hub.CLOSE_BAD_HELLO);
    assertThat(end.closeReason).contains("another device than the upgrade");
  }

  @Test
  void hello_namingNoDevice_isClosedAsMissingTheName() throws Exception {
    DeviceEnd end = connect(null);

    end.send(hello(" ", Hub.VERSION));

    assertThat(end.closeCode()).isEqualTo(Hub.CLOSE_MISSING_NAME);
  }

  @Test
  void sweep_socketWithoutAHelloForTenSeconds_isClosed() throws Exception {
    DeviceEnd end = connect("box1");
    routes.sweep();
    assertThat(end.closed).isNotDone();

    clock.advance(Duration.ofSeconds(11));
    // A sweep may come before the hub has seen the socket open (its upgrade is answered first):
    // the socket then waits for the next sweep rather than being forgotten.
    Eventually.until(
        "the hub closes the silent socket",
        WAIT,
        () -> {
          routes.sweep();
          return end.closed.isDone();
        });

    assertThat(end.closeCode()).isEqualTo(Hub.CLOSE_BAD_HELLO);
    assertThat(end.closeReason).isEqualTo("no hello within 10 s");
  }

  /** Regression: a socket that closed before its hello was followed until a sweep saw it. */
  @Test
  void close_ofASocketBeforeItsHello_forgetsIt() throws Exception {
    DeviceEnd end = connect("box1");
    assertThat(routes.ungreeted()).isEqualTo(1);

    end.session.close();

    Eventually.until("the hub forgets the closed socket", WAIT, () -> routes.ungreeted() == 0);
  }

  /** Regression: a socket whose open was never seen was followed for ever. */
  @Test
  void sweep_aSocketWhoseOpenIsNeverSeen_forgetsItPastTheLimit() {
    routes.endpoint("box1", "127.0.0.1");

    clock.advance(Duration.ofSeconds(11));
    routes.sweep();
    assertThat(routes.ungreeted()).isEqualTo(1);

    clock.advance(HubRoutes.FORGET_AFTER);
    routes.sweep();
    assertThat(routes.ungreeted()).isZero();
  }

  @Test
  void command_overTheSocket_getsTheDevicesOutputAndResult() throws Exception {
    DeviceEnd end = welcomed("box1");
    List<String> output = new CopyOnWriteArrayList<>();
    CompletableFuture<HubMessage.Result> pending =
        CompletableFuture.supplyAsync(
            () ->
                hub.run(
                    "c1",
                    "box1",
                    "bash",
                    WireJson.tree(Map.of("command", "echo hi")),
                    Deadline.after(Duration.ofSeconds(30), clock),
                    (stream, data) -> output.add(data)));

    HubMessage.Command command = end.next(HubMessage.Command.class);
    assertThat(command.id()).isEqualTo("c1");
    assertThat(command.timeoutMillis()).isEqualTo(30_000);
    assertThat(command.params().path("command").asString()).isEqualTo("echo hi");
    end.send(new HubMessage.Output("c1", "stdout", "hi\n"));
    end.send(new HubMessage.Result("c1", WireJson.tree(Map.of("exit_code", 0)), null));

    HubMessage.Result result = pending.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(result.ok()).isTrue();
    assertThat(output).containsExactly("hi\n");
  }

  /** A reply without an id used to close the socket with 1011 and a NullPointerException. */
  @Test
  void malformedReplies_areDropped_theConnectionAndItsCommandStay() throws Exception {
    DeviceEnd end = welcomed("box1");
    CompletableFuture<HubMessage.Result> pending =
        CompletableFuture.supplyAsync(
            () ->
                hub.run(
                    "c1",
                    "box1",
                    "bash",
                    WireJson.tree(Map.of("command", "true")),
                    Deadline.after(Duration.ofSeconds(30), clock),
                    (stream, data) -> {}));
    end.next(HubMessage.Command.class);

    end.sendText("{\"type\":\"result\",\"result\":{\"exit_code\":1}}");
    end.sendText("{\"type\":\"output\",\"stream\":\"stdout\",\"data\":\"x\"}");
    end.sendText("{\"type\":\"result\",\"id\":{\"not\":\"text\"}}");
    end.sendText("not json at all");
    end.sendText("{\"type\":\"from_a_later_version\"}");
    end.send(new HubMessage.Heartbeat(9));
    assertThat(end.next(HubMessage.Heartbeat.class).sentAtMillis()).isEqualTo(9);
    end.send(new HubMessage.Result("c1", WireJson.tree(Map.of("exit_code", 0)), null));

    assertThat(pending.get(WAIT.toSeconds(), TimeUnit.SECONDS).ok()).isTrue();
    assertThat(end.closed).isNotDone();
    assertThat(hub.link("box1")).isNotNull();
  }

  @Test
  void socketClosing_underARunningCommand_failsItAtOnce() throws Exception {
    DeviceEnd end = welcomed("box1");
    CompletableFuture<HubMessage.Result> pending =
        CompletableFuture.supplyAsync(
            () ->
                hub.run(
                    "c1",
                    "box1",
                    "bash",
                    WireJson.tree(Map.of("command", "sleep 60")),
                    Deadline.after(Duration.ofMinutes(5), clock),
                    (stream, data) -> {}));
    end.next(HubMessage.Command.class);

    end.session.close(1000, "going", Callback.NOOP);

    HubMessage.Result result = pending.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    assertThat(result.error().code()).isEqualTo(Codes.DEVICE_DISCONNECTED);
    assertThat(result.error().message()).contains("Device 'box1' disconnected").contains("going");
    Eventually.until("box1 is offline", WAIT, () -> hub.online().isEmpty());
  }
}
