package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Deadline;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The hub on a clock the tests move: admission and its caps, eviction of silent devices, the cap on
 * commands in flight, deadlines, and what a device that goes away does to its pending commands.
 * Commands run on callers' threads, as the webhook's do; the device's side is a recording socket.
 */
class DeviceHubTest {
  static final Duration WAIT = Duration.ofSeconds(20);

  final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
  final AtomicReference<Machines> registry =
      new AtomicReference<>(
          Machines.parse(
              """
              {"machines": {"box1": {"platform": "linux"}, "box2": {}, "box3": {}}}
              """));
  final ExecutorService callers = Executors.newCachedThreadPool();

  @AfterEach
  void stopCallers() throws InterruptedException {
    callers.shutdownNow();
    assertThat(callers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  DeviceHub hub(int maxDevices, int maxCommands) {
    return new DeviceHub(
        registry::get, clock, new DeviceSettings(Duration.ofMinutes(15), maxDevices, maxCommands));
  }

  DeviceHub hub() {
    return hub(64, 128);
  }

  DeviceLink link(String device, RecordingSocket socket) {
    return new DeviceLink(
        socket,
        new HubMessage.Hello(Hub.VERSION, device, "linux", "amd64", "host", "1.0", List.of("bash")),
        clock.instant());
  }

  DeviceLink admitted(DeviceHub hub, String device, RecordingSocket socket) {
    DeviceLink link = link(device, socket);
    assertThat(hub.admit(link)).isNull();
    return link;
  }

  /** Starts a command on a caller's thread; it returns once it has its result. */
  CompletableFuture<HubMessage.Result> start(
      DeviceHub hub, String id, String device, Duration budget, List<String> output) {
    Deadline deadline = Deadline.after(budget, clock);
    return CompletableFuture.supplyAsync(
        () ->
            hub.run(
                id,
                device,
                "bash",
                WireJson.tree(Map.of("command", "true")),
                deadline,
                (stream, data) -> output.add(stream + ":" + data)),
        callers);
  }

  CompletableFuture<HubMessage.Result> start(DeviceHub hub, String id, String device) {
    return start(hub, id, device, Duration.ofMinutes(1), new CopyOnWriteArrayList<>());
  }

  static void awaitCommand(RecordingSocket socket, String id) {
    Eventually.until(
        "the hub sends command " + id,
        WAIT,
        () -> socket.sent(HubMessage.Command.class).stream().anyMatch(c -> c.id().equals(id)));
  }

  static HubMessage.Result result(CompletableFuture<HubMessage.Result> pending) throws Exception {
    return pending.get(WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  @Test
  void admit_registeredDevice_isOnlineWithItsHello() {
    DeviceHub hub = hub();

    DeviceLink link = admitted(hub, "box1", new RecordingSocket());

    assertThat(hub.link("box1")).isSameAs(link);
    assertThat(hub.online()).extracting(DeviceLink::name).containsExactly("box1");
    assertThat(hub.lastHello("box1").arch()).isEqualTo("amd64");
  }

  @Test
  void admit_deviceReportingAnotherPlatformThanItsEntry_isRefusedNamingBoth() {
    registry.set(Machines.parse("{\"machines\": {\"winbox\": {\"platform\": \"windows\"}}}"));

    DeviceHub.Refusal refusal = hub().admit(link("winbox", new RecordingSocket()));

    assertThat(refusal.code()).isEqualTo(Hub.CLOSE_PLATFORM_MISMATCH);
    assertThat(refusal.reason())
        .isEqualTo("machines.json says 'winbox' is windows, but it reports linux");
  }

  @Test
  void admit_entryWithoutAPlatform_takesTheOneTheDeviceReports() {
    DeviceHub hub = hub();

    admitted(hub, "box2", new RecordingSocket());

    assertThat(hub.online()).extracting(DeviceLink::name).containsExactly("box2");
  }

  @Test
  void admit_deviceNotInTheRegistry_isRefusedAsNotRegistered() {
    DeviceHub.Refusal refusal = hub().admit(link("stranger", new RecordingSocket()));

    assertThat(refusal.code()).isEqualTo(Hub.CLOSE_NOT_REGISTERED);
    assertThat(refusal.reason()).contains("'stranger'").contains("machines.json");
  }

  @Test
  void admit_nameConnectedAlready_isRefusedAsDuplicateWhileTheFirstStays() {
    DeviceHub hub = hub();
    DeviceLink first = admitted(hub, "box1", new RecordingSocket());

    DeviceHub.Refusal refusal = hub.admit(link("box1", new RecordingSocket()));

    assertThat(refusal.code()).isEqualTo(Hub.CLOSE_DUPLICATE_DEVICE);
    assertThat(hub.link("box1")).isSameAs(first);
  }

  @Test
  void admit_hubHoldsMaxDevices_isRefusedAsFullUntilOneLeaves() {
    DeviceHub hub = hub(1, 128);
    DeviceLink first = admitted(hub, "box1", new RecordingSocket());

    DeviceHub.Refusal refusal = hub.admit(link("box2", new RecordingSocket()));
    assertThat(refusal.code()).isEqualTo(Hub.CLOSE_HUB_FULL);
    assertThat(refusal.reason()).contains("1 devices");

    hub.left(first, 1000, "bye");
    assertThat(hub.admit(link("box2", new RecordingSocket()))).isNull();
  }

  @Test
  void admit_whileShuttingDown_isRefusedAsGoingAway() {
    DeviceHub hub = hub();
    hub.shutdown();

    assertThat(hub.admit(link("box1", new RecordingSocket())).code()).isEqualTo(1001);
  }

  @Test
  void evictSilent_deviceSilentPastTheLimit_isClosedAndItsCommandsFail() throws Exception {
    DeviceHub hub = hub();
    RecordingSocket socket = new RecordingSocket();
    admitted(hub, "box1", socket);
    CompletableFuture<HubMessage.Result> pending = start(hub, "c1", "box1");
    awaitCommand(socket, "c1");

    clock.advance(Hub.SILENCE_LIMIT.plusSeconds(1));
    hub.evictSilent();

    HubMessage.Result result = result(pending);
    assertThat(result.error().code()).isEqualTo(Codes.DEVICE_DISCONNECTED);
    assertThat(result.error().message())
        .contains("Device 'box1' disconnected")
        .contains("heartbeat timeout");
    assertThat(socket.closeCode()).isEqualTo(Hub.CLOSE_HEARTBEAT_TIMEOUT);
    assertThat(hub.link("box1")).isNull();
  }

  @Test
  void evictSilent_deviceHeardWithinTheLimit_staysConnected() {
    DeviceHub hub = hub();
    RecordingSocket socket = new RecordingSocket();
    DeviceLink link = admitted(hub, "box1", socket);

    clock.advance(Hub.SILENCE_LIMIT.minusSeconds(1));
    link.heard(clock.instant());
    clock.advance(Hub.SILENCE_LIMIT.minusSeconds(1));
    hub.evictSilent();

    assertThat(socket.isOpen()).isTrue();
    assertThat(hub.link("box1")).isSameAs(link);
  }

  @Test
  void run_deviceAnswers_returnsItsResultAndStreamsItsOutput() throws Exception {
    DeviceHub hub = hub();
    RecordingSocket socket = new RecordingSocket();
    DeviceLink link = admitted(hub, "box1", socket);
    List<String> output = new CopyOnWriteArrayList<>();
    CompletableFuture<HubMessage.Result> pending =
        start(hub, "c1", "box1", Duration.ofSeconds(30), output);
    awaitCommand(socket, "c1");

    link.output(new HubMessage.Output("c1", "stdout", "hello\n"));
    link.output(new HubMessage.Output("other", "stdout", "not mine\n"));
    link.result(new HubMessage.Result("c1", WireJson.tree(Map.of("exit_code", 0)), null));

    HubMessage.Result result = result(pending);
    assertThat(result.ok()).isTrue();
    assertThat(result.result().path("exit_code").asInt()).isZero();
    assertThat(output).containsExactly("stdout:hello\n");
    HubMessage.Command sent = socket.sent(HubMessage.Command.class).get(0);
    assertThat(sent.timeoutMillis()).isEqualTo(30_000);
    assertThat(sent.action()).isEqualTo("bash");
    assertThat(link.running()).isZero();
  }

  @Test
  void run_deadlineFalls_failsAndTellsTheDeviceToStop() throws Exception {
    DeviceHub hub = hub();
    RecordingSocket socket = new RecordingSocket();
    DeviceLink link = admitted(hub, "box1", socket);
    CompletableFuture<HubMessage.Result> pending =
        start(hub, "c1", "box1", Duration.ofSeconds(30), new CopyOnWriteArrayList<>());
    awaitCommand(socket, "c1");

    clock.advance(Duration.ofSeconds(31));

    HubMessage.Result result = result(pending);
    assertThat(result.error().code()).isEqualTo(Codes.UNAVAILABLE);
    assertThat(result.error().message())
        .isEqualTo("Device 'box1' gave no result within 30 s; the command was told to stop.");
    assertThat(socket.sent(HubMessage.Cancel.class))
        .extracting(HubMessage.Cancel::id)
        .containsExactly("c1");

    link.result(new HubMessage.Result("c1", WireJson.tree(Map.of("late", true)), null));
    assertThat(link.running()).isZero();
  }

  @Test
  void run_commandsInFlightAtTheCap_refusesTheNextUntilOneEnds() throws Exception {
    DeviceHub hub = hub(64, 1);
    RecordingSocket socket = new RecordingSocket();
    DeviceLink link = admitted(hub, "box1", socket);
    CompletableFuture<HubMessage.Result> first = start(hub, "c1", "box1");
    awaitCommand(socket, "c1");

    HubMessage.Result refused = result(start(hub, "c2", "box1"));
    assertThat(refused.error().code()).isEqualTo(Codes.UNAVAILABLE);
    assertThat(refused.error().message()).contains("running 1 remote commands already");

    link.result(new HubMessage.Result("c1", WireJson.tree(Map.of()), null));
    assertThat(result(first).ok()).isTrue();
    CompletableFuture<HubMessage.Result> third = start(hub, "c3", "box1");
    awaitCommand(socket, "c3");
    link.result(new HubMessage.Result("c3", WireJson.tree(Map.of()), null));
    assertThat(result(third).ok()).isTrue();
  }

  @Test
  void run_commandIdInUse_isRefused() throws Exception {
    DeviceHub hub = hub();
    RecordingSocket socket = new RecordingSocket();
    admitted(hub, "box1", socket);
    start(hub, "c1", "box1");
    awaitCommand(socket, "c1");

    HubMessage.Result again = result(start(hub, "c1", "box1"));

    assertThat(again.error().code()).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(again.error().message()).contains("'c1' is in use");
  }

  @Test
  void left_deviceWithPendingCommands_failsEachAtOnceAsDisconnected() throws Exception {
    DeviceHub hub = hub();
    RecordingSocket socket = new RecordingSocket();
    DeviceLink link = admitted(hub, "box1", socket);
    CompletableFuture<HubMessage.Result> one = start(hub, "c1", "box1");
    CompletableFuture<HubMessage.Result> two = start(hub, "c2", "box1");
    awaitCommand(socket, "c1");
    awaitCommand(socket, "c2");

    socket.close(1006, null);
    hub.left(link, 1006, null);

    for (CompletableFuture<HubMessage.Result> pending : List.of(one, two)) {
      HubMessage.Result result = result(pending);
      assertThat(result.error().code()).isEqualTo(Codes.DEVICE_DISCONNECTED);
      assertThat(result.error().message())
          .contains("(close code 1006)")
          .contains("may or may not have completed");
    }
    assertThat(hub.online()).isEmpty();
  }

  @Test
  void run_deviceOffline_failsNamingTheDevicesOnline() throws Exception {
    DeviceHub hub = hub();
    admitted(hub, "box2", new RecordingSocket());

    HubMessage.Result result = result(start(hub, "c1", "box1"));

    assertThat(result.error().code()).isEqualTo(Codes.DEVICE_OFFLINE);
    assertThat(result.error().message())
        .isEqualTo(
            "Device 'box1' is not connected: start 'cortex client --name box1' on it. Devices"
                + " online now: box2.");
  }

  @Test
  void run_deviceNotRegistered_failsNamingTheRegisteredOnes() throws Exception {
    HubMessage.Result result = result(start(hub(), "c1", "nowhere"));

    assertThat(result.error().code()).isEqualTo(Codes.DEVICE_OFFLINE);
    assertThat(result.error().message())
        .contains("No device named 'nowhere'")
        .contains("registered: box1, box2, box3")
        .contains("Devices online now: none.");
  }

  @Test
  void cancel_runningCommand_endsItCancelledAndTellsTheDevice() throws Exception {
    DeviceHub hub = hub();
    RecordingSocket socket = new RecordingSocket();
    admitted(hub, "box1", socket);
    CompletableFuture<HubMessage.Result> pending = start(hub, "c1", "box1");
    awaitCommand(socket, "c1");

    assertThat(hub.cancel("c1", "the caller cancelled it")).isTrue();

    HubMessage.Result result = result(pending);
    assertThat(result.error().code()).isEqualTo(Codes.CANCELLED);
    assertThat(result.error().message())
        .isEqualTo("The command was cancelled: the caller cancelled it.");
    assertThat(socket.sent(HubMessage.Cancel.class)).hasSize(1);
    assertThat(hub.cancel("c1", "again")).isFalse();
  }

  @Test
  void shutdown_failsPendingCommandsClosesLinksAndRefusesNewCommands() throws Exception {
    DeviceHub hub = hub();
    RecordingSocket socket = new RecordingSocket();
    admitted(hub, "box1", socket);
    CompletableFuture<HubMessage.Result> pending = start(hub, "c1", "box1");
    awaitCommand(socket, "c1");

    hub.shutdown();

    HubMessage.Result result = result(pending);
    assertThat(result.error().code()).isEqualTo(Codes.UNAVAILABLE);
    assertThat(result.error().message()).contains("shutting down").contains("'box1'");
    assertThat(socket.closeCode()).isEqualTo(1001);
    assertThat(hub.stopping()).isTrue();
    assertThat(result(start(hub, "c2", "box1")).error().message()).contains("shutting down");
  }

  @Test
  void reconcile_deviceRemovedFromTheRegistry_isDroppedAndForgotten() {
    DeviceHub hub = hub();
    RecordingSocket removed = new RecordingSocket();
    RecordingSocket kept = new RecordingSocket();
    admitted(hub, "box1", removed);
    admitted(hub, "box2", kept);

    registry.set(Machines.parse("{\"machines\": {\"box2\": {}}}"));
    hub.reconcile();

    assertThat(removed.closeCode()).isEqualTo(Hub.CLOSE_NOT_REGISTERED);
    assertThat(kept.isOpen()).isTrue();
    assertThat(hub.online()).extracting(DeviceLink::name).containsExactly("box2");
    assertThat(hub.lastHello("box1")).isNull();
  }

  @Test
  void drop_revokedDevice_closesItsLinkAsRevoked() {
    DeviceHub hub = hub();
    RecordingSocket socket = new RecordingSocket();
    admitted(hub, "box1", socket);

    hub.drop("box1", "credential revoked");

    assertThat(socket.closeCode()).isEqualTo(Hub.CLOSE_REVOKED);
    assertThat(socket.closeReason()).isEqualTo("credential revoked");
    assertThat(hub.link("box1")).isNull();
  }
}
