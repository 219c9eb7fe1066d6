package dev.cortex.protocol.webhook;

import java.util.Objects;

/**
 * An error as it travels between device, hub, webhook and tool: a stable code and a sentence that
 * says what to fix. Codes are those of {@link Codes}.
 */
public record ErrorBody(String code, String message) {
  public ErrorBody {
    Objects.requireNonNull(code, "code");
    Objects.requireNonNull(message, "message");
  }

  /** The stable codes of remote work, beside the kit's INVALID_ARGUMENT, UNAVAILABLE, INTERNAL. */
  public static final class Codes {
    private Codes() {}

    public static final String INVALID_ARGUMENT = "INVALID_ARGUMENT";
    public static final String UNAVAILABLE = "UNAVAILABLE";
    public static final String INTERNAL = "INTERNAL";
    public static final String CANCELLED = "CANCELLED";

    /** The device is not connected (or not registered); the message lists those online. */
    public static final String DEVICE_OFFLINE = "DEVICE_OFFLINE";

    /** The device went away while the command ran; it may or may not have been carried out. */
    public static final String DEVICE_DISCONNECTED = "DEVICE_DISCONNECTED";

    /** No such file or directory on the device. */
    public static final String NOT_FOUND = "NOT_FOUND";

    /** The device's user may not read or write the path. */
    public static final String PERMISSION_DENIED = "PERMISSION_DENIED";

    /** The file is larger than the action takes; the message says how to read it in parts. */
    public static final String TOO_LARGE = "TOO_LARGE";

    /** The device cannot run the action (e.g. a POSIX shell action on Windows). */
    public static final String UNSUPPORTED = "UNSUPPORTED";

    /** {@code old_string} is missing, or not unique without {@code replace_all}. */
    public static final String EDIT_MISMATCH = "EDIT_MISMATCH";
  }
}
