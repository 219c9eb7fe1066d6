package dev.cortex.e2e.agentserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A device that speaks the hub's protocol by hand over the JDK's WebSocket, so that a test can send
 * what no {@code cortex client} would.
 */
final class RawDevice implements WebSocket.Listener {
  private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
  private final CompletableFuture<String> closed = new CompletableFuture<>();
  private final StringBuilder partial = new StringBuilder();
  private WebSocket socket;

  static RawDevice connect(AgentServer server, String name, String secret) throws Exception {
    RawDevice device = new RawDevice();
    device.socket =
        HttpClient.newHttpClient()
            .newWebSocketBuilder()
            .header("Authorization", "Bearer " + secret)
            .header("X-Cortex-Device", name)
            .buildAsync(URI.create(server.hubUrl() + "/hub"), device)
            .get(30, TimeUnit.SECONDS);
    return device;
  }

  @Override
  public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
    partial.append(data);
    if (last) {
      received.add(partial.toString());
      partial.setLength(0);
    }
    webSocket.request(1);
    return null;
  }

  @Override
  public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
    closed.complete(statusCode + " " + reason);
    return null;
  }

  @Override
  public void onError(WebSocket webSocket, Throwable error) {
    closed.complete("error " + error);
  }

  void send(String text) throws Exception {
    socket.sendText(text, true).get(30, TimeUnit.SECONDS);
  }

  /** The next message the hub sent. */
  String next() throws InterruptedException {
    String message = received.poll(30, TimeUnit.SECONDS);
    assertThat(message).as("a message from the hub (closed: %s)", closed.getNow(null)).isNotNull();
    return message;
  }

  CompletableFuture<String> closed() {
    return closed;
  }

  void abort() {
    socket.abort();
  }
}
