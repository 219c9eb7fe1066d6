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

  @Test
  void post_severalCalls_shareOneConnection_whetherTheAnswerHasALengthOrChunks() throws Exception {
    for (boolean chunked : new boolean[] {false, true}) {
      try (LoopbackServer server = new LoopbackServer(chunked)) {
        Files.createDirectories(home().dataDir());
        Files.writeString(
            home().dataDir().resolve(Webhook.SERVER_FILE),
            "{\"webhook_port\": " + server.port() + "}");
        AgentServerClient client =
            new AgentServerClient(Map.of("CORTEX_WEBHOOK_TOKEN", TOKEN), home());

        for (int i = 1; i <= 3; i++) {
          assertThat(
                  client
                      .post(
                          Webhook.REMOTE_COMMAND,
                          Map.of(),
                          Duration.ofSeconds(10),
                          Cancellation.NONE,
                          x -> {})
                      .path("n")
                      .asInt())
              .isEqualTo(i);
        }

        assertThat(server.connections()).as("chunked: " + chunked).isEqualTo(1);
      }
    }
  }

  @Test
  void post_afterTheServerFileChanges_goesWhereItNowSays() throws Exception {
    try (LoopbackServer first = new LoopbackServer(false);
        LoopbackServer second = new LoopbackServer(false)) {
      Path file = home().dataDir().resolve(Webhook.SERVER_FILE);
      Files.createDirectories(home().dataDir());
      Files.writeString(file, "{\"webhook_port\": " + first.port() + "}");
      AgentServerClient client =
          new AgentServerClient(Map.of("CORTEX_WEBHOOK_TOKEN", TOKEN), home());
      client.post(Webhook.DEVICES, Map.of(), Duration.ofSeconds(10), Cancellation.NONE, x -> {});

      // Rewritten in place, as long as before: only its modification time tells.
      Files.writeString(file, "{\"webhook_port\": " + second.port() + "}");
      Files.setLastModifiedTime(
          file,
          java.nio.file.attribute.FileTime.from(
              Files.getLastModifiedTime(file).toInstant().plusSeconds(1)));
      client.post(Webhook.DEVICES, Map.of(), Duration.ofSeconds(10), Cancellation.NONE, x -> {});

      assertThat(first.connections()).isEqualTo(1);
      assertThat(second.connections()).isEqualTo(1);
    }
  }

  /**
   * A loopback HTTP/1.1 server that keeps connections alive and answers every request with the
   * result {@code {"n": <requests so far>}}, with a length or in chunks (the end's chunk a moment
   * after the result's, as a streamed answer ends), and counts the connections it accepted.
   */
  static final class LoopbackServer implements AutoCloseable {
    private final ServerSocket socket;
    private final boolean chunked;
    private final java.util.concurrent.atomic.AtomicInteger connections =
        new java.util.concurrent.atomic.AtomicInteger();
    private final java.util.concurrent.atomic.AtomicInteger requests =
        new java.util.concurrent.atomic.AtomicInteger();

    LoopbackServer(boolean chunked) throws IOException {
      this.socket = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
      this.chunked = chunked;
      Thread accept = new Thread(this::accept, "test-http-accept");
      accept.setDaemon(true);
      accept.start();
    }

    int port() {
      return socket.getLocalPort();
    }

    int connections() {
      return connections.get();
    }

    private void accept() {
      while (!socket.isClosed()) {
        try {
          java.net.Socket connection = socket.accept();
          connections.incrementAndGet();
          Thread serve = new Thread(() -> serve(connection), "test-http-connection");
          serve.setDaemon(true);
          serve.start();
        } catch (IOException e) {
          return;
        }
      }
    }

    private void serve(java.net.Socket connection) {
      try (connection) {
        var in =
            new java.io.DataInputStream(
                new java.io.BufferedInputStream(connection.getInputStream()));
        var out = connection.getOutputStream();
        while (true) {
          int length = 0;
          String line = readLine(in);
          if (line == null) {
            return;
          }
          while (!(line = readLine(in)).isEmpty()) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
              length = Integer.parseInt(line.substring(15).strip());
            }
          }
          in.readFully(new byte[length]);
          byte[] body =
              ("{\"result\":{\"n\":" + requests.incrementAndGet() + "}}\n")
                  .getBytes(java.nio.charset.StandardCharsets.UTF_8);
          String head = "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n";
          if (chunked) {
            out.write((head + "Transfer-Encoding: chunked\r\n\r\n").getBytes());
            out.write((Integer.toHexString(body.length) + "\r\n").getBytes());
            out.write(body);
            out.write("\r\n".getBytes());
            out.flush();
            Thread.sleep(20);
            out.write("0\r\n\r\n".getBytes());
          } else {
            out.write((head + "Content-Length: " + body.length + "\r\n\r\n").getBytes());
            out.write(body);
          }
          out.flush();
        }
      } catch (IOException e) {
        // the client closed the connection
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private static String readLine(java.io.InputStream in) throws IOException {
      StringBuilder line = new StringBuilder();
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) {
          return line.length() == 0 ? null : line.toString();
        }
        if (c != '\r') {
          line.append((char) c);
        }
      }
      return line.toString();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
