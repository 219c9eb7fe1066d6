package dev.cortex.server.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CodedException;
import dev.cortex.base.CortexHome;
import dev.cortex.base.Deadline;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.webhook.Webhook;
import dev.cortex.testing.MovableClock;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the client finds the agent server and what it says when it cannot ask it: no server, no
 * token, a port that is no port, or a deadline that has passed. Real loopback ports; nothing is
 * sent where no server listens.
 */
class AgentServerClientTest {
  static final String TOKEN = "token-for-tests-0123456789abcdef";

  @TempDir Path dir;

  CortexHome home() {
    return new CortexHome(dir, dir.resolve("data"));
  }

  /** A loopback port nothing listens on (bound, then let go). */
  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  static CodedException failure(Runnable call) {
    try {
      call.run();
    } catch (CodedException e) {
      return e;
    }
    throw new AssertionError("the call did not fail");
  }

  @Test
  void webhookPort_fromTheEnvironmentTheServerFileOrTheDefault() throws Exception {
    assertThat(new AgentServerClient(Map.of(), home()).webhookPort())
        .isEqualTo(Webhook.DEFAULT_PORT);

    Files.createDirectories(home().dataDir());
    Files.writeString(
        home().dataDir().resolve(Webhook.SERVER_FILE), "{\"webhook_port\": 4123, \"pid\": 1}");
    assertThat(new AgentServerClient(Map.of(), home()).webhookPort()).isEqualTo(4123);

    assertThat(new AgentServerClient(Map.of("WEBHOOK_PORT", " 4555 "), home()).webhookPort())
        .isEqualTo(4555);
  }

  @Test
  void webhookPort_notAPortNumber_isUnavailableNamingTheValue() {
    AgentServerClient client = new AgentServerClient(Map.of("WEBHOOK_PORT", "70000"), home());

    CodedException e = failure(client::webhookPort);

    assertThat(e.code()).isEqualTo(ErrorCodes.UNAVAILABLE);
    assertThat(e.getMessage()).contains("1 to 65535").contains("'70000'");
  }

  @Test
  void post_nothingListening_saysTheServerIsNotRunningAndHowToStartIt() throws Exception {
    int port = freePort();
    AgentServerClient client =
        new AgentServerClient(
            Map.of("WEBHOOK_PORT", Integer.toString(port), "CORTEX_WEBHOOK_TOKEN", TOKEN), home());

    CodedException e =
        failure(
            () ->
                client.post(
                    Webhook.DEVICES,
                    Map.of(),
                    Deadline.after(Duration.ofSeconds(5), Clock.systemUTC()),
                    Cancellation.NONE,
                    event -> {}));

    assertThat(e.code()).isEqualTo(ErrorCodes.UNAVAILABLE);
    assertThat(e.getMessage())
        .contains("not running: nothing answers on 127.0.0.1:" + port)
        .contains("cortex server");
  }

  @Test
  void post_withoutAToken_saysWhereTheTokenComesFromAndNeverShowsOne() throws Exception {
    AgentServerClient client =
        new AgentServerClient(Map.of("WEBHOOK_PORT", Integer.toString(freePort())), home());

    CodedException e =
        failure(
            () ->
                client.post(
                    Webhook.DEVICES, Map.of(), Duration.ofSeconds(5), Cancellation.NONE, x -> {}));

    assertThat(e.code()).isEqualTo(ErrorCodes.UNAVAILABLE);
    assertThat(e.getMessage()).contains("CORTEX_WEBHOOK_TOKEN").contains("token file");
  }

  @Test
  void post_tokenFromTheHomesTokenFile_isUsed() throws Exception {
    Files.createDirectories(home().configDir());
    Files.writeString(home().configDir().resolve(Webhook.TOKEN_FILE), TOKEN + "\n");
    int port = freePort();
    AgentServerClient client =
        new AgentServerClient(Map.of("WEBHOOK_PORT", Integer.toString(port)), home());

    CodedException e =
        failure(
            () ->
                client.post(
                    Webhook.DEVICES, Map.of(), Duration.ofSeconds(5), Cancellation.NONE, x -> {}));

    assertThat(e.getMessage()).contains("nothing answers on 127.0.0.1:" + port);
  }

  @Test
  void post_deadlinePassedLongAgo_failsWithoutAskingTheServer() throws Exception {
    MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
    Deadline deadline = Deadline.after(Duration.ofSeconds(10), clock);
    clock.advance(Duration.ofMinutes(5));
    AgentServerClient client =
        new AgentServerClient(
            Map.of("WEBHOOK_PORT", Integer.toString(freePort()), "CORTEX_WEBHOOK_TOKEN", TOKEN),
            home());

    assertThatThrownBy(
            () ->
                client.post(Webhook.REMOTE_COMMAND, Map.of(), deadline, Cancellation.NONE, x -> {}))
        .isInstanceOfSatisfying(
            CodedException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.UNAVAILABLE))
        .hasMessage("The call's time ran out before the agent server was asked; nothing was sent.");
  }

  /** A clock the test moves by hand. */
}
