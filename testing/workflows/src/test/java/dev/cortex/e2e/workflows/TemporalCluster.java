package dev.cortex.e2e.workflows;

import io.grpc.InsecureServerCredentials;
import io.grpc.Server;
import io.grpc.ServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.temporal.internal.testservice.GRPCServerHelper;
import io.temporal.internal.testservice.TestServicesStarter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * A real Temporal service for the protocol tests: the test server of {@code
 * io.temporal:temporal-testing}, started in the test's JVM and serving gRPC on a free loopback
 * port, in real time. The cortex processes under test reach it as they would reach any cluster.
 */
final class TemporalCluster implements AutoCloseable {
  private final TestServicesStarter services;
  private final Server server;

  private TemporalCluster(TestServicesStarter services, Server server) {
    this.services = services;
    this.server = server;
  }

  static TemporalCluster start() {
    TestServicesStarter services = new TestServicesStarter(true, 0);
    ServerBuilder<?> builder =
        NettyServerBuilder.forAddress(
            new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            InsecureServerCredentials.create());
    GRPCServerHelper.registerServicesAndHealthChecks(services.getServices(), builder);
    try {
      return new TemporalCluster(services, builder.build().start());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  String address() {
    return InetAddress.getLoopbackAddress().getHostAddress() + ":" + server.getPort();
  }

  /**
   * The variables that select this cluster and {@code queue}, with a short heartbeat timeout so
   * that an attempt whose worker died goes to another within seconds.
   */
  Map<String, String> env(String queue) {
    Map<String, String> env = new HashMap<>();
    env.put("CORTEX_WORKFLOWS_ENGINE", "temporal");
    env.put("CORTEX_TEMPORAL_ADDRESS", address());
    env.put("CORTEX_TEMPORAL_TASK_QUEUE", queue);
    env.put("CORTEX_TEMPORAL_HEARTBEAT_TIMEOUT", "2s");
    return env;
  }

  @Override
  public void close() {
    server.shutdownNow();
    services.close();
  }
}
