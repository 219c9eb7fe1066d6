package dev.cortex.e2e.agentserver;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import tools.jackson.databind.JsonNode;

/** Remote commands sent straight to the webhook, as the tests of devices and of the server do. */
final class WebhookCommands {
  private WebhookCommands() {}

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
}
