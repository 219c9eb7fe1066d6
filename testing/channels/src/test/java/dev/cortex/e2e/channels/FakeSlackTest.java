package dev.cortex.e2e.channels;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The fixture itself: its Socket Mode endpoint upgrades and says hello. */
class FakeSlackTest {
  @Test
  void theSocketSaysHello() throws Exception {
    try (FakeSlack slack = new FakeSlack()) {
      CompletableFuture<String> hello = new CompletableFuture<>();
      HttpClient.newHttpClient()
          .newWebSocketBuilder()
          .buildAsync(
              URI.create("ws://127.0.0.1:" + slack.port() + "/socket"),
              new WebSocket.Listener() {
                @Override
                public CompletionStage<?> onText(
                    WebSocket webSocket, CharSequence data, boolean last) {
                  hello.complete(data.toString());
                  return null;
                }
              })
          .get(10, TimeUnit.SECONDS);
      assertThat(hello.get(10, TimeUnit.SECONDS)).contains("\"type\":\"hello\"");
    }
  }
}
