package dev.cortex.protocol;

import java.util.Objects;
import tools.jackson.databind.JsonNode;

/** The agent server's loopback webhook: routes and the bodies MCP tools send to them. */
public final class Webhook {
  private Webhook() {}

  /** Runs an action on a device; the answer streams output events, then the result. */
  public static final String REMOTE_COMMAND = "/webhook/remote-command";

  /** Stops a remote command that is still running. */
  public static final String REMOTE_CANCEL = "/webhook/remote-command/cancel";

  /** The registered devices and which are online. */
  public static final String DEVICES = "/webhook/devices";

  /** Tells the server that a device's credential was revoked (it drops the connection). */
  public static final String DEVICE_REVOKED = "/webhook/devices/revoked";

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

  /** An event line of a streamed answer: output of a running command. */
  public record OutputEvent(String event, String stream, String data) {
    public static OutputEvent of(String stream, String data) {
      return new OutputEvent("output", stream, data);
    }
  }
}
