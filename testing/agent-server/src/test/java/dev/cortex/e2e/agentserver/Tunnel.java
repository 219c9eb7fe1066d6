package dev.cortex.e2e.agentserver;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP tunnel on loopback, as {@code ssh -N -L LOCAL:127.0.0.1:HUB server} opens one: its own
 * port, whatever the hub's, forwarding each connection both ways.
 */
final class Tunnel implements AutoCloseable {
  private final ServerSocket listening;
  private final int target;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();

  private Tunnel(ServerSocket listening, int target) {
    this.listening = listening;
    this.target = target;
  }

  /** Opens a tunnel to {@code 127.0.0.1:target} on a free loopback port. */
  static Tunnel to(int target) throws IOException {
    Tunnel tunnel = new Tunnel(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()), target);
    Thread accepting = new Thread(tunnel::accept, "tunnel-accept");
    accepting.setDaemon(true);
    accepting.start();
    return tunnel;
  }

  int port() {
    return listening.getLocalPort();
  }

  private void accept() {
    while (!listening.isClosed()) {
      try {
        Socket near = listening.accept();
        Socket far = new Socket(InetAddress.getLoopbackAddress(), target);
        sockets.add(near);
        sockets.add(far);
        pump(near, far);
        pump(far, near);
      } catch (IOException e) {
        return;
      }
    }
  }

  private static void pump(Socket from, Socket to) {
    Thread thread =
        new Thread(
            () -> {
              try (InputStream in = from.getInputStream();
                  OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
              } catch (IOException ignored) {
                // one side closed
              } finally {
                try {
                  to.close();
                  from.close();
                } catch (IOException ignored) {
                  // already closed
                }
              }
            },
            "tunnel-pump");
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public void close() throws IOException {
    listening.close();
    for (Socket socket : sockets) {
      socket.close();
    }
  }
}
