package dev.cortex.workflows.temporal;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.temporal.api.workflowservice.v1.DescribeNamespaceRequest;
import io.temporal.api.workflowservice.v1.GetSystemInfoRequest;
import io.temporal.client.WorkflowClient;
import io.temporal.client.WorkflowClientOptions;
import io.temporal.serviceclient.SimpleSslContextBuilder;
import io.temporal.serviceclient.WorkflowServiceStubs;
import io.temporal.serviceclient.WorkflowServiceStubsOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.TrustManagerFactory;

/**
 * A connection to a Temporal cluster as the settings say: gRPC stubs (connected lazily, on first
 * use) and a client for the settings' namespace. The API key, if any, is read from the environment
 * when the connection is made, never from a file.
 */
final class Connection implements AutoCloseable {
  /** How long a reachability check waits for the cluster. */
  static final Duration CHECK_TIMEOUT = Duration.ofSeconds(3);

  final TemporalSettings settings;
  final WorkflowServiceStubs stubs;
  final WorkflowClient client;

  private Connection(TemporalSettings settings, WorkflowServiceStubs stubs) {
    this.settings = settings;
    this.stubs = stubs;
    this.client =
        WorkflowClient.newInstance(
            stubs, WorkflowClientOptions.newBuilder().setNamespace(settings.namespace()).build());
  }

  /**
   * Opens stubs to the cluster; nothing is sent until the first call.
   *
   * @throws IllegalArgumentException when the TLS files cannot be read or the API key's variable is
   *     not set
   */
  static Connection open(TemporalSettings settings, Map<String, String> env) {
    WorkflowServiceStubsOptions.Builder options =
        WorkflowServiceStubsOptions.newBuilder()
            .setTarget(settings.address())
            .setRpcQueryTimeout(Duration.ofSeconds(10));
    if (settings.usesTls()) {
      options.setSslContext(sslContext(settings));
    }
    if (settings.apiKeyEnv() != null) {
      String key = env.get(settings.apiKeyEnv());
      if (key == null || key.isBlank()) {
        throw new IllegalArgumentException(
            "the Temporal API key variable "
                + settings.apiKeyEnv()
                + " (api_key_env) is not set in this environment");
      }
      options.addApiKey(() -> key);
    }
    return new Connection(settings, WorkflowServiceStubs.newServiceStubs(options.build()));
  }

  /**
   * Why the cluster cannot be used now, as a sentence for a person; empty when it answers and knows
   * the namespace. Waits at most {@link #CHECK_TIMEOUT}.
   */
  Optional<String> problem() {
    try {
      stubs
          .blockingStub()
          .withDeadlineAfter(CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .getSystemInfo(GetSystemInfoRequest.getDefaultInstance());
    } catch (StatusRuntimeException e) {
      return Optional.of(
          "the Temporal cluster at " + settings.address() + " is unreachable (" + reason(e) + ")");
    }
    try {
      stubs
          .blockingStub()
          .withDeadlineAfter(CHECK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .describeNamespace(
              DescribeNamespaceRequest.newBuilder().setNamespace(settings.namespace()).build());
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() == Status.Code.NOT_FOUND) {
        return Optional.of(
            "the Temporal cluster at "
                + settings.address()
                + " has no namespace '"
                + settings.namespace()
                + "'");
      }
      if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED
          && e.getStatus().getCode() != Status.Code.PERMISSION_DENIED) {
        return Optional.of(
            "the Temporal cluster at "
                + settings.address()
                + " did not answer ("
                + reason(e)
                + ")");
      }
    }
    return Optional.empty();
  }

  static String reason(StatusRuntimeException e) {
    String description = e.getStatus().getDescription();
    return e.getStatus().getCode()
        + (description == null || description.isBlank() ? "" : ": " + firstLine(description));
  }

  private static String firstLine(String text) {
    return text.lines().findFirst().orElse(text).strip();
  }

  private static io.grpc.netty.shaded.io.netty.handler.ssl.SslContext sslContext(
      TemporalSettings settings) {
    try {
      SimpleSslContextBuilder builder;
      if (settings.tlsCert() != null) {
        try (InputStream cert = read(settings.tlsCert(), "tls_cert");
            InputStream key = read(settings.tlsKey(), "tls_key")) {
          builder = SimpleSslContextBuilder.forPKCS8(cert, key);
          if (settings.tlsCa() != null) {
            builder.setTrustManager(trust(settings.tlsCa()));
          }
          return builder.build();
        }
      }
      builder = SimpleSslContextBuilder.noKeyOrCertChain();
      if (settings.tlsCa() != null) {
        builder.setTrustManager(trust(settings.tlsCa()));
      }
      return builder.build();
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalArgumentException("Temporal TLS: " + e.getMessage(), e);
    }
  }

  private static InputStream read(Path file, String key) {
    try {
      return Files.newInputStream(file);
    } catch (IOException e) {
      throw new IllegalArgumentException("Temporal " + key + ": cannot read " + file);
    }
  }

  /** A trust manager for the CA certificates in a PEM file. */
  private static javax.net.ssl.TrustManager trust(Path caFile)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    try (InputStream in = read(caFile, "tls_ca")) {
      int i = 0;
      for (Certificate certificate :
          CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        store.setCertificateEntry("ca-" + i++, certificate);
      }
    }
    TrustManagerFactory factory =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    factory.init(store);
    return factory.getTrustManagers()[0];
  }

  @Override
  public void close() {
    stubs.shutdown();
    stubs.awaitTermination(2, TimeUnit.SECONDS);
  }
}
