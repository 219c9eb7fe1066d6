package dev.cortex.protocol.hub;

import dev.cortex.protocol.webhook.ErrorBody;
import dev.cortex.protocol.webhook.Signals;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;

/**
 * A message of the device hub's protocol v1. Each travels as one JSON object with a {@code type}
 * (the record's {@link #type()}) and the record's components in snake_case; unknown fields are
 * ignored, so that later minor additions do not break a v1 peer. A reply without the id of the
 * command (or the file) it belongs to is malformed: {@link dev.cortex.protocol.WireJson#read}
 * refuses it.
 */
public sealed interface HubMessage {
  /** The {@code type} this message travels under. */
  String type();

  /**
   * The device's first message.
   *
   * @param platform {@code linux}, {@code macos}, {@code windows} or another {@code os.name}
   * @param capabilities the actions the device can run, e.g. {@code bash}, {@code grep:ripgrep}
   * @param home the device's Cortex home (where its spool is), or null
   * @param launcher the {@code cortex} command on the device, or null
   */
  record Hello(
      int protocol,
      String device,
      String platform,
      String arch,
      String hostname,
      String version,
      List<String> capabilities,
      String home,
      String launcher)
      implements HubMessage {
    public Hello {
      capabilities = capabilities == null ? List.of() : List.copyOf(capabilities);
    }

    public Hello(
        int protocol,
        String device,
        String platform,
        String arch,
        String hostname,
        String version,
        List<String> capabilities) {
      this(protocol, device, platform, arch, hostname, version, capabilities, null, null);
    }

    @Override
    public String type() {
      return "hello";
    }
  }

  /** The hub's answer to a good hello. */
  record Welcome(int protocol, String serverVersion, int heartbeatSeconds) implements HubMessage {
    @Override
    public String type() {
      return "welcome";
    }
  }

  /** A sign of life, sent by the device every 5 s and echoed by the hub. */
  record Heartbeat(long sentAtMillis) implements HubMessage {
    @Override
    public String type() {
      return "heartbeat";
    }
  }

  /**
   * Work for the device.
   *
   * @param action one of {@link Action}'s wire names
   * @param params the action's parameters (the matching record of {@link Actions})
   * @param timeoutMillis how long the hub waits for the result: what is left of the command's
   *     deadline, which the device takes as its own
   */
  record Command(String id, String action, JsonNode params, long timeoutMillis)
      implements HubMessage {
    public Command {
      params = params == null || params.isNull() ? null : params;
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(action, "action");
    }

    @Override
    public String type() {
      return "command";
    }
  }

  /** A chunk of a running command's output, as it arrives. */
  record Output(String id, String stream, String data) implements HubMessage {
    public Output {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public String type() {
      return "output";
    }
  }

  /** The end of a command: its result, or an error. */
  record Result(String id, JsonNode result, ErrorBody error) implements HubMessage {
    public Result {
      Objects.requireNonNull(id, "id");
      result = result == null || result.isNull() ? null : result;
    }

    @Override
    public String type() {
      return "result";
    }

    public boolean ok() {
      return error == null;
    }
  }

  /** The hub no longer wants the command's result: stop it. */
  record Cancel(String id, String reason) implements HubMessage {
    public Cancel {
      Objects.requireNonNull(id, "id");
    }

    @Override
    public String type() {
      return "cancel";
    }
  }

  /**
   * A signal from the device's spool; the hub answers with a {@link SignalAck} of the same file.
   *
   * @param file the spool file's name on the device
   */
  record SignalFile(String file, Signals.Signal signal) implements HubMessage {
    public SignalFile {
      Objects.requireNonNull(file, "file");
    }

    @Override
    public String type() {
      return "signal";
    }
  }

  /**
   * The server's answer to a spooled signal: taken ({@code outcome}), so the device deletes the
   * file, or refused ({@code error}), so it moves the file aside with the reason.
   */
  record SignalAck(String file, Signals.Outcome outcome, ErrorBody error) implements HubMessage {
    public SignalAck {
      Objects.requireNonNull(file, "file");
    }

    @Override
    public String type() {
      return "signal_ack";
    }
  }
}
