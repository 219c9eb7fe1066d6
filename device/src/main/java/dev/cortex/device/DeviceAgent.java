package dev.cortex.device;

import dev.cortex.process.Executables;
import dev.cortex.process.Processes;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.HubMessage;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.io.ClientConnector;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.websocket.api.exceptions.UpgradeException;
import org.eclipse.jetty.websocket.client.ClientUpgradeRequest;
import org.eclipse.jetty.websocket.client.WebSocketClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent of a remote device: enrols when given a code, connects to the hub, says who it is,
 * sends a heartbeat every 5 s, carries out commands, and reconnects with backoff (1 s doubling to
 * 30 s, with jitter) when the connection ends or the hub refuses it for a reason that may pass (the
 * device is not registered yet), until the hub refuses it for a reason only a person can cure (a
 * wrong or revoked credential, a name the hub does not answer to, another protocol version) or the
 * client is stopped.
 */
public final class DeviceAgent implements AutoCloseable {
  /** What {@link #run()} returns when the client was stopped. */
  public static final int STOPPED = 0;

  /** What {@link #run()} returns when the client could not run (e.g. the hub was not reached). */
  public static final int FAILED = 1;

  /**
   * What {@link #run()} returns when the hub refused this device and asking again cannot help: a
   * person must act (e.g. enrol it again, or fix the hub's settings or the URL).
   */
  public static final int REFUSED = 3;

  private static final Logger log = LoggerFactory.getLogger(DeviceAgent.class);

  private final ClientOptions options;
  private final CommandRunner runner;
  private final GrepAction grep;
  private final boolean windows;
  private final CountDownLatch stop = new CountDownLatch(1);
  private final ScheduledExecutorService ticker;
  private final DeviceSpool spool;
  private final Jobs jobs;
  private volatile HubLink current;
  private volatile String failure;

  public DeviceAgent(ClientOptions options) {
    this.options = Objects.requireNonNull(options, "options");
    this.windows = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("windows");
    LoginShell shell =
        windows || options.loginShellPerCommand()
            ? LoginShell.perCommand(options.environment())
            : LoginShell.resolvedOnce(options.environment());
    this.jobs = new Jobs(options.jobsDir(), shell, options.workingDirectory(), options.clock());
    this.grep = new GrepAction(options.workingDirectory(), ripgrep(options), options.environment());
    this.runner =
        new CommandRunner(
            new ShellAction(
                shell, options.workingDirectory(), options.captureBytes(), windows, jobs),
            new FileActions(new AgentsChain(options.agentsHome())),
            new GlobAction(options.workingDirectory()),
            grep,
            jobs,
            options.clock());
    this.spool = new DeviceSpool(options.spoolDir(), options.clock());
    this.ticker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "cortex-device-heartbeat");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** The {@code rg} to search with: on the device's PATH, unless the options say java. */
  private static String ripgrep(ClientOptions options) {
    if ("java".equals(options.grepEngine())) {
      return null;
    }
    String found =
        Executables.find("rg", options.environment(), options.workingDirectory())
            .map(Path::toString)
            .orElse(null);
    if (found == null && "ripgrep".equals(options.grepEngine())) {
      throw new IllegalArgumentException("--grep-engine ripgrep: no rg on the PATH");
    }
    return found;
  }

  HubMessage.Hello hello() {
    String hostname;
    try {
      hostname = InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      hostname = null;
    }
    List<String> capabilities =
        new ArrayList<>(List.of("bash", "read", "write", "edit", "glob", "grep", "job", "signal"));
    capabilities.add(Actions.READ_BYTES_CAPABILITY);
    capabilities.add("grep:" + grep.engine());
    if (Processes.groupsSupported()) {
      capabilities.add("process-groups");
    }
    return new HubMessage.Hello(
        Hub.VERSION,
        options.name(),
        platform(),
        System.getProperty("os.arch", "unknown"),
        hostname,
        options.version(),
        capabilities,
        options.home().toAbsolutePath().toString(),
        options.environment().get("CORTEX_LAUNCHER"));
  }

  private String platform() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    if (windows) {
      return "windows";
    }
    if (os.contains("mac") || os.contains("darwin")) {
      return "macos";
    }
    return os.contains("linux") ? "linux" : "other";
  }

  /**
   * Serves until {@link #close()} or until the hub refuses the device for good.
   *
   * @return {@link #STOPPED}, {@link #FAILED} or {@link #REFUSED} (the reason is logged and kept in
   *     {@link #failure()})
   */
  public int run() throws InterruptedException {
    String credential;
    try {
      credential = credential();
    } catch (Enrolment.Failed e) {
      failure = "enrolment failed: " + e.getMessage();
      log.error(failure);
      return e.refusal() != null && e.refusal().isFinal() ? REFUSED : FAILED;
    }
    if (credential == null) {
      return STOPPED;
    }
    WebSocketClient client;
    try {
      client = websocketClient();
    } catch (Exception e) {
      failure = "cannot start the WebSocket client: " + e.getMessage();
      log.error(failure);
      return FAILED;
    }
    ticker.scheduleWithFixedDelay(this::tick, 5, 5, TimeUnit.SECONDS);
    ticker.scheduleWithFixedDelay(this::flushSpool, 1, 1, TimeUnit.SECONDS);
    Backoff backoff = new Backoff();
    try {
      while (stop.getCount() > 0) {
        HubLink link = new HubLink(hello(), runner, spool, options.clock());
        HubLink.Ending ending = connect(client, link, credential);
        current = null;
        if (stop.getCount() == 0) {
          break;
        }
        if (ending.code() < 0 || Hub.isFinal(ending.code())) {
          failure = "the hub refused this device: " + ending.reason() + "; not retrying";
          log.error(failure);
          return REFUSED;
        }
        if (ending.welcomed()) {
          backoff.reset();
        }
        long wait = backoff.nextMillis();
        log.info(
            "disconnected ({}); reconnecting in {} ms",
            ending.reason() == null || ending.reason().isBlank()
                ? HubLink.describe(ending.code())
                : ending.reason(),
            wait);
        if (stop.await(wait, TimeUnit.MILLISECONDS)) {
          break;
        }
      }
      return STOPPED;
    } finally {
      ticker.shutdownNow();
      runner.close();
      try {
        client.stop();
      } catch (Exception e) {
        log.debug("stopping the WebSocket client", e);
      }
    }
  }

  /** Why {@link #run()} did not return {@link #STOPPED}, for the command line. */
  public String failure() {
    return failure;
  }

  /** The credential to connect with; null when the client was stopped while enrolling. */
  private String credential() throws Enrolment.Failed, InterruptedException {
    if (options.enrolmentCode() != null) {
      return enrol();
    }
    String stored = Enrolment.stored(options.credentialFile());
    if (stored != null) {
      return stored;
    }
    if (options.sharedToken() != null) {
      return options.sharedToken();
    }
    throw new Enrolment.Failed(
        "this device has no credential: run 'cortex server enroll "
            + options.name()
            + "' on the server and pass the code with --enroll, or set CORTEX_CLIENT_TOKEN");
  }

  /**
   * Exchanges the enrolment code, asking again with backoff while the hub's refusal may pass (the
   * device is not in its registry yet, too many wrong codes this minute, the hub is starting).
   */
  private String enrol() throws Enrolment.Failed, InterruptedException {
    Backoff backoff = new Backoff();
    while (true) {
      try {
        String credential = Enrolment.exchange(options);
        log.info(
            "enrolled as {}; the credential is kept in {}",
            options.name(),
            options.credentialFile());
        return credential;
      } catch (Enrolment.Failed e) {
        if (!e.retryable()) {
          throw e;
        }
        long wait = backoff.nextMillis();
        log.info("{}; asking again in {} ms", e.getMessage(), wait);
        if (stop.await(wait, TimeUnit.MILLISECONDS)) {
          return null;
        }
      }
    }
  }

  private WebSocketClient websocketClient() throws Exception {
    SslContextFactory.Client tls = new SslContextFactory.Client();
    if (options.trustCertificate() != null) {
      try {
        tls.setTrustStore(Trust.store(options.trustCertificate()));
      } catch (IOException | GeneralSecurityException e) {
        throw new IllegalArgumentException(
            "cannot read the certificate " + options.trustCertificate() + ": " + e.getMessage());
      }
    }
    ClientConnector connector = new ClientConnector();
    connector.setSslContextFactory(tls);
    HttpClient http = new HttpClient(new HttpClientTransportOverHTTP(connector));
    WebSocketClient client = new WebSocketClient(http);
    client.setMaxTextMessageSize(Hub.MAX_MESSAGE_BYTES);
    client.setIdleTimeout(Duration.ofSeconds(60));
    client.start();
    return client;
  }

  private HubLink.Ending connect(WebSocketClient client, HubLink link, String credential)
      throws InterruptedException {
    ClientUpgradeRequest request = new ClientUpgradeRequest(options.endpoint());
    request.setHeader("Authorization", "Bearer " + credential);
    request.setHeader(Hub.DEVICE_HEADER, options.name());
    HubRefusal.Body refused = new HubRefusal.Body();
    try {
      CompletableFuture<org.eclipse.jetty.websocket.api.Session> session =
          client.connect(link, request, refused);
      session.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return failedUpgrade(e.getCause(), refused);
    } catch (TimeoutException e) {
      return new HubLink.Ending(1006, "connecting to " + options.endpoint() + " timed out", false);
    } catch (IOException e) {
      return new HubLink.Ending(1006, "cannot connect: " + e.getMessage(), false);
    }
    current = link;
    while (true) {
      try {
        return link.ended().get(1, TimeUnit.SECONDS);
      } catch (TimeoutException e) {
        if (stop.getCount() == 0) {
          link.close(1001, "the device client is stopping");
          try {
            return link.ended().get(5, TimeUnit.SECONDS);
          } catch (ExecutionException | TimeoutException ignored) {
            return new HubLink.Ending(1001, "stopped", link.welcomed());
          }
        }
      } catch (ExecutionException e) {
        return new HubLink.Ending(1006, String.valueOf(e.getCause()), link.welcomed());
      }
    }
  }

  /**
   * How an upgrade that failed ended: refused for good (code -1) when the hub's answer says asking
   * again cannot help, else a connection to retry (1006) with the reason.
   */
  private HubLink.Ending failedUpgrade(Throwable cause, HubRefusal.Body body) {
    if (cause instanceof UpgradeException upgrade && upgrade.getResponseStatusCode() > 0) {
      HubRefusal refusal = HubRefusal.of(upgrade.getResponseStatusCode(), body.text());
      if (refusal.isFinal()) {
        String cure =
            refusal.status() == 401
                ? " (enrol it again: 'cortex server enroll "
                    + options.name()
                    + "' on the server, then --enroll CODE here)"
                : "";
        return new HubLink.Ending(-1, refusal.describe() + cure, false);
      }
      return new HubLink.Ending(1006, "the hub answered " + refusal.describe(), false);
    }
    String why =
        cause == null
            ? "unknown error"
            : cause.getClass().getSimpleName() + ": " + cause.getMessage();
    return new HubLink.Ending(1006, "cannot connect to " + options.endpoint() + ": " + why, false);
  }

  /** Every 5 s: a heartbeat, and a check that the hub is still heard. */
  private void tick() {
    HubLink link = current;
    if (link == null) {
      return;
    }
    if (Duration.between(link.lastHeard(), options.clock().instant()).compareTo(Hub.SILENCE_LIMIT)
        > 0) {
      log.warn("the hub was silent for over 15 s; reconnecting");
      link.close(Hub.CLOSE_HEARTBEAT_TIMEOUT, "the hub went silent");
      return;
    }
    link.heartbeat();
  }

  private void flushSpool() {
    try {
      jobs.signalEnded(spool.spool());
    } catch (RuntimeException e) {
      log.warn("writing the signals of ended jobs failed", e);
    }
    HubLink link = current;
    if (link == null) {
      return;
    }
    try {
      link.flushSpool();
    } catch (RuntimeException e) {
      log.warn("sending the spool's signals failed", e);
    }
  }

  /** Stops serving: the connection closes, running commands are stopped. */
  @Override
  public void close() {
    stop.countDown();
  }
}
