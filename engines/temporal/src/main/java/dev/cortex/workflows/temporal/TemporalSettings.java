package dev.cortex.workflows.temporal;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the Temporal cluster is and how to reach it: the frontend's {@code host:port}, the
 * namespace, the task queue the interpreter and its activities run on, TLS (with the system's CAs,
 * or a CA file; a client certificate and key for mutual TLS), the environment variable that holds
 * an API key (a hosted cluster), and the heartbeat timeout after which an attempt whose worker went
 * silent is given to another worker.
 */
public record TemporalSettings(
    String address,
    String namespace,
    String taskQueue,
    boolean tls,
    Path tlsCert,
    Path tlsKey,
    Path tlsCa,
    String apiKeyEnv,
    Duration heartbeatTimeout) {

  public static final String DEFAULT_ADDRESS = "127.0.0.1:7233";
  public static final String DEFAULT_NAMESPACE = "default";
  public static final String DEFAULT_TASK_QUEUE = "cortex";
  public static final Duration DEFAULT_HEARTBEAT_TIMEOUT = Duration.ofSeconds(30);

  /** A local development cluster: {@code 127.0.0.1:7233}, namespace and queue by default. */
  public static final TemporalSettings DEFAULTS =
      new TemporalSettings(
          DEFAULT_ADDRESS,
          DEFAULT_NAMESPACE,
          DEFAULT_TASK_QUEUE,
          false,
          null,
          null,
          null,
          null,
          DEFAULT_HEARTBEAT_TIMEOUT);

  public TemporalSettings {
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(taskQueue, "taskQueue");
    Objects.requireNonNull(heartbeatTimeout, "heartbeatTimeout");
    if (!address.matches("[^\\s:/]+:[0-9]{1,5}")
        && !address.matches("\\[[0-9a-fA-F:.]+]:[0-9]{1,5}")) {
      throw new IllegalArgumentException(
          "address '" + address + "' is not host:port, e.g. 127.0.0.1:7233");
    }
    if (namespace.isBlank()) {
      throw new IllegalArgumentException("namespace must not be empty");
    }
    if (taskQueue.isBlank()) {
      throw new IllegalArgumentException("task_queue must not be empty");
    }
    if ((tlsCert == null) != (tlsKey == null)) {
      throw new IllegalArgumentException(
          "tls_cert and tls_key go together: give both (mutual TLS) or neither");
    }
    if (heartbeatTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException("heartbeat_timeout must be at least 1s");
    }
  }

  /** Whether the connection uses TLS: asked for, or implied by certificates or an API key. */
  public boolean usesTls() {
    return tls || tlsCert != null || tlsCa != null || apiKeyEnv != null;
  }

  /** These settings with another task queue. */
  public TemporalSettings withTaskQueue(String queue) {
    return new TemporalSettings(
        address, namespace, queue, tls, tlsCert, tlsKey, tlsCa, apiKeyEnv, heartbeatTimeout);
  }

  /** {@code address, namespace N, task queue Q}, for messages. */
  public String where() {
    return address + " (namespace " + namespace + ", task queue " + taskQueue + ")";
  }
}
