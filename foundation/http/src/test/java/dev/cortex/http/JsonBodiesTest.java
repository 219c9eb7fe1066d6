package dev.cortex.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Request bodies read up to a cap, on a real loopback server, by plain socket clients. */
class JsonBodiesTest {
  static final int CAP = 1000;

  HttpHost host;

  @BeforeEach
  void start() {
    Handler reading =
        new Handler.Abstract() {
          @Override
          public boolean handle(Request request, Response response, Callback callback)
              throws Exception {
            if (request.getHttpURI().getPath().startsWith("/refused")) {
              JsonBodies.refuse(request, response, callback, 403, "FORBIDDEN", "Refused.");
              return true;
            }
            byte[] body = JsonBodies.read(request, CAP);
            if (body == null) {
              JsonBodies.error(response, callback, 413, "INVALID_ARGUMENT", "Too large.");
            } else {
              JsonBodies.send(response, callback, 200, Map.of("bytes", body.length));
            }
            return true;
          }
        };
    host =
        HttpHost.builder("test-bodies")
            .connector("web", "127.0.0.1", 0, null)
            .route("web", "/*", reading)
            .start();
  }

  @AfterEach
  void stop() {
    host.stop(Duration.ofSeconds(5));
  }

  /**
   * Regression: a body over the cap was answered before it was read and the connection closed under
   * a sender still writing it, who then often saw a reset instead of the 413.
   */
  @Test
  void read_overTheCapWithContentLength_isReadWhole_andAnswered413() throws IOException {
    for (int i = 0; i < 50; i++) {
      assertThat(post(256 * 1024, false)).as("attempt %d", i + 1).isEqualTo(413);
    }
  }

  @Test
  void read_overTheCapChunked_isReadWhole_andAnswered413() throws IOException {
    for (int i = 0; i < 50; i++) {
      assertThat(post(256 * 1024, true)).as("attempt %d", i + 1).isEqualTo(413);
    }
  }

  @Test
  void read_withinTheCap_isTheBody() throws IOException {
    assertThat(post(CAP, false)).isEqualTo(200);
    assertThat(post(CAP, true)).isEqualTo(200);
  }

  /**
   * Far beyond what is worth reading, the answer comes without reading: the sender may then see the
   * connection closed before it has sent everything.
   */
  @Test
  void read_declaredFarBeyondTheCap_isRefusedWithoutReadingIt() throws IOException {
    try (Socket socket = socket()) {
      socket
          .getOutputStream()
          .write(
              head(false, CAP + JsonBodies.DISCARD_LIMIT + 1L).getBytes(StandardCharsets.US_ASCII));
      assertThat(statusLine(socket)).contains(" 413 ");
    }
  }

  /**
   * Regression: a POST refused before its body was read left the connection to be dropped after the
   * answer, and a client that reused it for its next request read no bytes there.
   */
  @Test
  void refuse_beforeTheBodyIsRead_closesTheConnection_soTheNextRequestStillGoesThrough()
      throws Exception {
    java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
    String base = "http://127.0.0.1:" + host.port("web");
    for (int i = 0; i < 200; i++) {
      java.net.http.HttpResponse<String> refused =
          client.send(
              java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/refused"))
                  .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"a\":" + i + "}"))
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(refused.statusCode()).isEqualTo(403);
      assertThat(refused.headers().firstValue("Connection")).contains("close");
      java.net.http.HttpResponse<String> next =
          client.send(
              java.net.http.HttpRequest.newBuilder(java.net.URI.create(base + "/body"))
                  .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}"))
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertThat(next.statusCode()).as("attempt %d", i + 1).isEqualTo(200);
    }
  }

  Socket socket() throws IOException {
    Socket socket = new Socket("127.0.0.1", host.port("web"));
    socket.setSoTimeout(30_000);
    return socket;
  }

  String head(boolean chunked, long size) {
    return "POST /body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + (chunked ? "Transfer-Encoding: chunked" : "Content-Length: " + size)
        + "\r\n\r\n";
  }

  /** Sends {@code size} bytes whole, then reads the status: -1 when the server cut it short. */
  int post(int size, boolean chunked) throws IOException {
    byte[] chunk = new byte[16 * 1024];
    Arrays.fill(chunk, (byte) 'x');
    try (Socket socket = socket()) {
      OutputStream out = socket.getOutputStream();
      try {
        out.write(head(chunked, size).getBytes(StandardCharsets.US_ASCII));
        for (int sent = 0; sent < size; sent += chunk.length) {
          int n = Math.min(chunk.length, size - sent);
          if (chunked) {
            out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
          }
          out.write(chunk, 0, n);
          if (chunked) {
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
          }
        }
        if (chunked) {
          out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        out.flush();
      } catch (IOException e) {
        return -1;
      }
      String status = statusLine(socket);
      return status == null ? -1 : Integer.parseInt(status.split(" ")[1]);
    }
  }

  static String statusLine(Socket socket) {
    try {
      return new BufferedReader(
              new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
          .readLine();
    } catch (IOException e) {
      return null;
    }
  }
}
