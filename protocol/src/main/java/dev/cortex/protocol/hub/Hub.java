package dev.cortex.protocol.hub;

import java.time.Duration;

/**
 * Constants of the device hub's protocol, version 1: where devices connect, how they present
 * themselves, how often they speak, and the close codes the hub ends a connection with. The
 * messages are {@link HubMessage}s, one JSON object per WebSocket text frame.
 */
public final class Hub {
  private Hub() {}

  /** The protocol version this build speaks. */
  public static final int VERSION = 1;

  /** Path of the WebSocket endpoint on the hub's port. */
  public static final String PATH = "/hub";

  /** Path where a device exchanges a one-time enrolment code for its credential. */
  public static final String ENROL_PATH = "/enrol";

  /** The header naming the device at the upgrade. */
  public static final String DEVICE_HEADER = "X-Cortex-Device";

  /** The default port of the hub. */
  public static final int DEFAULT_PORT = 3002;

  /** How often a device sends a heartbeat. */
  public static final Duration HEARTBEAT = Duration.ofSeconds(5);

  /** Silence after which either side gives the connection up. */
  public static final Duration SILENCE_LIMIT = Duration.ofSeconds(15);

  /** The largest message either side accepts. */
  public static final int MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

  /**
   * Characters of a command's output streamed while it runs, at most, in {@link HubMessage.Output}s
   * from the device and in output events from the webhook; the result carries the device's whole
   * capture anyway.
   */
  public static final int MAX_STREAMED_CHARS = 1 << 20;

  /** Close code: the device did not say its name. */
  public static final int CLOSE_MISSING_NAME = 4001;

  /** Close code: a device of that name is already connected. */
  public static final int CLOSE_DUPLICATE_DEVICE = 4002;

  /** Close code: the device went silent for longer than {@link #SILENCE_LIMIT}. */
  public static final int CLOSE_HEARTBEAT_TIMEOUT = 4003;

  /** Close code: the device speaks another protocol version. */
  public static final int CLOSE_PROTOCOL_VERSION = 4004;

  /** Close code: the device's credential was revoked, or the device removed from the registry. */
  public static final int CLOSE_REVOKED = 4005;

  /** Close code: the hello was missing or malformed, or named another device than the upgrade. */
  public static final int CLOSE_BAD_HELLO = 4006;

  /** Close code: the device is not (or no longer) in the registry, machines.json. */
  public static final int CLOSE_NOT_REGISTERED = 4007;

  /** Close code: the hub holds as many devices as it may. */
  public static final int CLOSE_HUB_FULL = 4008;

  /**
   * Close code: the hello reports another platform than the device's entry in the registry
   * declares.
   */
  public static final int CLOSE_PLATFORM_MISMATCH = 4009;

  /** Whether a close code means the device should stop retrying until a person acts. */
  public static boolean isFinal(int closeCode) {
    return closeCode == CLOSE_REVOKED || closeCode == CLOSE_PROTOCOL_VERSION;
  }

  /**
   * The stable codes of the hub's HTTP refusals, in the {@code {"error": {"code", "message"}}} body
   * of a refused upgrade or enrolment.
   */
  public static final class Refusals {
    private Refusals() {}

    /** 403: the request came from a web page (it carried an {@code Origin} header). */
    public static final String ORIGIN_NOT_ALLOWED = "ORIGIN_NOT_ALLOWED";

    /** 403: the request's {@code Host} is not a name the hub answers to. */
    public static final String HOST_NOT_ALLOWED = "HOST_NOT_ALLOWED";

    /** 403: the device is not (or not yet) in the registry, machines.json. */
    public static final String NOT_REGISTERED = "NOT_REGISTERED";

    /** 401: no credential, a wrong or revoked one, or a wrong, used or expired code. */
    public static final String UNAUTHORIZED = "UNAUTHORIZED";

    /** 429: too many wrong codes for the device from this address; wait a minute. */
    public static final String TOO_MANY_ATTEMPTS = "TOO_MANY_ATTEMPTS";

    /**
     * Whether a refusal cannot be cured by asking again: the hub's own 401 {@link #UNAUTHORIZED},
     * and its 403 {@link #ORIGIN_NOT_ALLOWED} and {@link #HOST_NOT_ALLOWED}; a device stops on it.
     * Not {@link #NOT_REGISTERED} (the registry may name the device by the next try), and not an
     * answer without the hub's code: a proxy or tunnel in front of the hub gave it, and may not
     * give it again.
     */
    public static boolean isFinal(int status, String code) {
      return (status == 401 && UNAUTHORIZED.equals(code))
          || (status == 403 && (ORIGIN_NOT_ALLOWED.equals(code) || HOST_NOT_ALLOWED.equals(code)));
    }
  }
}
