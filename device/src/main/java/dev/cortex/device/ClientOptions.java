package dev.cortex.device;

import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;

/**
 * What a device client needs: where the hub is, the device's name and how it proves it, where it
 * keeps its jobs and credential, and the environment its commands run in.
 *
 * @param hub the hub's address, {@code ws://host:3002} or {@code wss://host:3002}
 * @param enrolmentCode a one-time code of {@code cortex server enroll} to exchange first, or null
 * @param sharedToken the hub's shared {@code CORTEX_CLIENT_TOKEN}, or null
 * @param credentialFile where this device's own credential is kept (owner-only)
 * @param trustCertificate a PEM certificate (or CA) to trust for wss, or null for the system's
 * @param agentsHome the device's {@code $CORTEX_HOME/AGENTS.md}
 * @param captureBytes output kept of one foreground command (head and tail)
 * @param grepEngine {@code auto}, {@code ripgrep} or {@code java}
 * @param home the device's Cortex home; signals dropped in its {@code spool/} go to the server
 * @param loginShellPerCommand each command in a login shell of its own ({@code bash -lc}), instead
 *     of in the login environment resolved once ({@link LoginShell})
 */
public record ClientOptions(
    URI hub,
    String name,
    String enrolmentCode,
    String sharedToken,
    Path credentialFile,
    Path trustCertificate,
    Path jobsDir,
    Path agentsHome,
    Path workingDirectory,
    Map<String, String> environment,
    String version,
    int captureBytes,
    String grepEngine,
    Clock clock,
    Path home,
    boolean loginShellPerCommand) {
  public ClientOptions {
    Objects.requireNonNull(hub, "hub");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(credentialFile, "credentialFile");
    Objects.requireNonNull(jobsDir, "jobsDir");
    Objects.requireNonNull(workingDirectory, "workingDirectory");
    environment = Map.copyOf(environment);
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(home, "home");
  }

  /** The spool of signals on this device. */
  Path spoolDir() {
    return home.resolve(dev.cortex.protocol.webhook.Spool.DIR);
  }

  /** The WebSocket endpoint. */
  URI endpoint() {
    String base = hub.toString();
    base = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    return URI.create(base + dev.cortex.protocol.hub.Hub.PATH);
  }

  /** The enrolment endpoint, over http(s). */
  URI enrolment() {
    String scheme = hub.getScheme().equals("wss") ? "https" : "http";
    return URI.create(
        scheme + "://" + hub.getRawAuthority() + dev.cortex.protocol.hub.Hub.ENROL_PATH);
  }
}
