package dev.cortex.e2e.mcp;

import static dev.cortex.testing.JsonRpcLines.cancel;
import static dev.cortex.testing.JsonRpcLines.ping;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexHttp;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.JsonRpcLines;
import dev.cortex.testing.RawStdio;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code notifications/cancelled} against the built program. No tool of the shipped groups blocks
 * on demand, so this pins what a client sees from the outside: a cancel is never answered, one for
 * a request already answered (or for {@code initialize}, or an unknown id) changes nothing, later
 * requests are served, and the server logs no warning about it. That a cancelled request in flight
 * gets no response is tested on the transports themselves, in mcp-kit.
 */
class CancellationIT {
  static final String CURRENT_TIME =
      JsonRpcLines.toolsCall(2, "current_time", "{\"timezone\":\"UTC\"}");

  @TempDir Path home;

  @Test
  void stdio_cancels_areNeverAnswered_laterRequestsAre_andNothingIsLogged() throws Exception {
    try (RawStdio wire = RawStdio.start(CortexProcess.env(home), "mcp", "--bundles", "core")) {
      JsonNode initialized = wire.initialize("{}");
      wire.send(CURRENT_TIME);
      JsonNode time = wire.next();
      wire.send(
          cancel("2"),
          cancel("1"),
          cancel("99"),
          cancel("\"unknown\""),
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\"}",
          ping(3));
      wire.closeInput();
      List<JsonNode> answers = wire.rest();

      assertThat(initialized.path("result").has("serverInfo")).isTrue();
      assertThat(time.path("id").asInt()).isEqualTo(2);
      assertThat(time.path("result").path("structuredContent").has("utc")).isTrue();
      assertThat(answers).hasSize(1);
      assertThat(answers.get(0).path("id").asInt()).isEqualTo(3);
      assertThat(answers.get(0).has("result")).isTrue();
      assertThat(wire.stderrAtExit())
          .doesNotContain("No handler registered")
          .doesNotContain("notifications/cancelled");
    }
  }

  @Test
  void http_cancel_isAccepted_andLaterRequestsAreServed() throws Exception {
    try (CortexHttp server = CortexHttp.start(CortexProcess.env(home), "--bundles", "core")) {
      String session = server.session();

      HttpResponse<String> unknown = server.post(cancel("99"), "Mcp-Session-Id", session);
      HttpResponse<String> pong = server.post(ping(3), "Mcp-Session-Id", session);

      assertThat(unknown.statusCode()).isEqualTo(202);
      assertThat(unknown.body()).isEmpty();
      assertThat(pong.statusCode()).isEqualTo(200);
      assertThat(pong.body()).contains("\"id\":3").contains("\"result\"");
    }
  }
}
