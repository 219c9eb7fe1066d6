package dev.cortex.workflows.temporal;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;

/**
 * The Temporal test server of {@code io.temporal:temporal-testing}, in this process, serving gRPC
 * on a free loopback port in real time (time skipping locked).
 */
final class LoopbackTemporal implements AutoCloseable {
  private final TestServicesStarter services;
  private final Server server;

  private LoopbackTemporal(TestServicesStarter services, Server server) {
    this.services = services;
    this.server = server;
  }

  static LoopbackTemporal start() {
    TestServicesStarter services = new TestServicesStarter(true, 0);
    ServerBuilder<?> builder =
        io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder.forAddress(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            InsecureServerCredentials.create());
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    try {
      return new LoopbackTemporal(services, builder.build().start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code 127.0.0.1:PORT}. */
  String address() {
    return InetAddress.getLoopbackAddress().getHostAddress() + ":" + server.getPort();
  }

  @Override
  public void close() {
    server.shutdownNow();
    services.close();
  }
}
