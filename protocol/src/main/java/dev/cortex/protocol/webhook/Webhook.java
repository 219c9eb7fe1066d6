package dev.cortex.protocol.webhook;

import java.time.Duration;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * The agent server's loopback webhook, version {@value #PROTOCOL}: its headers, default port, the
 * files in the Cortex home that tell a client where it is and which token it takes, the deadlines
 * of a request, its routes, and the bodies MCP tools send to them.
 */
public final class Webhook {
  private Webhook() {}

  /** The webhook protocol this build speaks. */
  public static final int PROTOCOL = 1;

  /** The header that carries the webhook token. */
  public static final String TOKEN_HEADER = "x-cortex-token";

  /** The header that carries the webhook protocol version. */
  public static final String PROTOCOL_HEADER = "x-cortex-protocol";

  /** The default webhook port. */
  public static final int DEFAULT_PORT = 3001;

  /** The file the agent server keeps its webhook token in, in the home's config directory. */
  public static final String TOKEN_FILE = "webhook-token";

  /** The file a running agent server describes itself in, in the data directory. */
  public static final String SERVER_FILE = "server.json";

  /** MCP calls and loopback requests end after this, whatever the tool. */
  public static final Duration INFRASTRUCTURE_DEADLINE = Duration.ofMinutes(30).plusSeconds(30);

  /** What a tool's own deadline gets on top, for its answer to come back. */
  public static final Duration ANSWER_MARGIN = Duration.ofSeconds(30);

  /** Runs an action on a device; the answer streams output events, then the result. */
  public static final String REMOTE_COMMAND = "/webhook/remote-command";

  /** Stops a remote command that is still running. */
  public static final String REMOTE_CANCEL = "/webhook/remote-command/cancel";

  /** The registered devices and which are online. */
  public static final String DEVICES = "/webhook/devices";

  /** Tells the server that a device's credential was revoked (it drops the connection). */
  public static final String DEVICE_REVOKED = "/webhook/devices/revoked";

  /**
   * Tells the server that machines.json names a device now ({@code cortex server enroll}): the
   * server reads the file at once and answers whether the device is admitted, and the URL devices
   * connect to.
   */
  public static final String DEVICE_REGISTERED = "/webhook/devices/registered";

  /** Health, for people and scripts: no token needed, nothing secret in it. */
  public static final String HEALTH = "/health";

  /**
   * A remote command.
   *
   * @param commandId chosen by the caller, so that it can cancel the command by id
   * @param timeoutMillis how long to wait for the device's result
   */
  public record RemoteCommand(
      String commandId, String device, String action, JsonNode params, long timeoutMillis) {
    public RemoteCommand {
      Objects.requireNonNull(commandId, "commandId");
      Objects.requireNonNull(device, "device");
      Objects.requireNonNull(action, "action");
    }
  }

  /** Stop the command {@code commandId}. */
  public record RemoteCancel(String commandId) {}

  /** A device revoked by {@code cortex server revoke}. */
  public record DeviceRevoked(String device) {}

  /** A device just added to (or changed in) machines.json by {@code cortex server enroll}. */
  public record DeviceRegistered(String device) {}

  /**
   * The answer to {@link DeviceRegistered}.
   *
   * @param registered whether the registry in force now admits the device
   * @param hubUrl the URL devices connect to
   */
  public record Registration(boolean registered, String hubUrl) {}

  /** An event line of a streamed answer: output of a running command. */
  public record OutputEvent(String event, String stream, String data) {
    public static OutputEvent of(String stream, String data) {
      return new OutputEvent("output", stream, data);
    }
  }
}
