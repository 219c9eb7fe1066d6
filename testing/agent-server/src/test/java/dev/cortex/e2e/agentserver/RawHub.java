package dev.cortex.e2e.agentserver;

import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * Requests to the hub as no device tool would send them: over a plain socket, with the {@code Host}
 * and {@code Origin} that a test chooses (a name this machine does not resolve, a browser's page).
 */
final class RawHub {
  private RawHub() {}

  /** The status and body of an answer. */
  record Answer(int status, String body) {
    JsonNode json() {
      return TestJson.JSON.readTree(body);
    }

    String errorCode() {
      return json().path("error").path("code").asString();
    }

    String errorMessage() {
      return json().path("error").path("message").asString();
    }
  }

  /** {@code POST /enrol} to a hub on loopback, as a device on this machine sends it. */
  static Answer enrolLocally(int port, String device, String code, Map<String, String> extra)
      throws IOException {
    return enrol("127.0.0.1", port, "127.0.0.1:" + port, device, code, extra);
  }

  /** {@code POST /enrol} to {@code address:port}, saying {@code Host: host}. */
  static Answer enrol(
      String address, int port, String host, String device, String code, Map<String, String> extra)
      throws IOException {
    String body = "{\"device\":\"" + device + "\",\"code\":\"" + code + "\"}";
    StringBuilder request =
        new StringBuilder("POST /enrol HTTP/1.1\r\n")
            .append("Host: ")
            .append(host)
            .append("\r\nContent-Type: application/json\r\nConnection: close\r\n")
            .append("Content-Length: ")
            .append(body.getBytes(StandardCharsets.UTF_8).length)
            .append("\r\n");
    extra.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
    request.append("\r\n").append(body);
    try (Socket socket = new Socket(address, port)) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(request.toString().getBytes(StandardCharsets.UTF_8));
      out.flush();
      InputStream in = socket.getInputStream();
      String answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      int status = Integer.parseInt(answer.substring(9, 12));
      int start = answer.indexOf("\r\n\r\n");
      return new Answer(status, start < 0 ? "" : answer.substring(start + 4).strip());
    }
  }

  /** An IPv4 address of this machine's that is not a loopback one, if it has any. */
  static Optional<String> nonLoopbackAddress() throws IOException {
    for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      if (!nic.isUp() || nic.isLoopback()) {
        continue;
      }
      for (InetAddress address : Collections.list(nic.getInetAddresses())) {
        if (address instanceof Inet4Address && !address.isLoopbackAddress()) {
          return Optional.of(address.getHostAddress());
        }
      }
    }
    return Optional.empty();
  }
}
