package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.Deadline;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.webhook.ErrorBody;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads a whole file from a device through the hub, chunk by chunk with {@code read_bytes}, for
 * {@code send_file} with {@code device}. A device that is offline, unknown, or too old to read
 * bytes, and a file that is missing, no regular file, too large or changed while read, end the read
 * with a coded error. The chunks go to a file as they come, never whole into memory.
 */
final class DeviceFileReader implements WebService.DeviceFiles {
  private static final Logger log = LoggerFactory.getLogger(DeviceFileReader.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** How long one chunk may take the device. */
  private static final Duration CHUNK_BUDGET = Duration.ofSeconds(60);

  /** The device's codes that say the file cannot be sent, as the local files say it. */
  private static final Set<String> FILE_CODES =
      Set.of(Codes.NOT_FOUND, Codes.PERMISSION_DENIED, Codes.TOO_LARGE, Codes.INVALID_ARGUMENT);

  private final DeviceHub hub;

  DeviceFileReader(DeviceHub hub) {
    this.hub = hub;
  }

  @Override
  public long copy(String device, String path, long maxBytes, Path target) {
    DeviceLink link = hub.link(device);
    if (link == null) {
      throw new CodedException(Codes.DEVICE_OFFLINE, hub.offline(device));
    }
    if (!link.hello().capabilities().contains(Actions.READ_BYTES_CAPABILITY)) {
      throw new CodedException(
          Codes.UNSUPPORTED,
          "Device '"
              + device
              + "' runs a cortex client that cannot send files; update it (it reports version "
              + link.hello().version()
              + ").");
    }
    try (OutputStream out = Files.newOutputStream(target)) {
      return fetch(device, path, maxBytes, out);
    } catch (IOException e) {
      log.warn("a file from device {} could not be stored: {}", device, e.toString());
      throw new CodedException(Codes.INTERNAL, "The file could not be stored on the server.");
    }
  }

  /** Writes the chunks to {@code out} from offset 0 until the device says the end; their size. */
  private long fetch(String device, String path, long maxBytes, OutputStream out)
      throws IOException {
    long read = 0;
    Long size = null;
    while (true) {
      Actions.ReadBytesResult chunk = chunk(device, path, read);
      if (size == null) {
        size = chunk.size();
        if (size > maxBytes) {
          throw WebFiles.unreadable(
              path
                  + " on device '"
                  + device
                  + "' is "
                  + size
                  + " bytes, more than a file sent may be ("
                  + maxBytes
                  + ").");
        }
      } else if (size != chunk.size()) {
        throw changed(device, path);
      }
      byte[] data = decode(device, chunk.data());
      read += data.length;
      if (read > size) {
        throw changed(device, path);
      }
      out.write(data);
      if (chunk.eof()) {
        break;
      }
      if (data.length == 0) {
        throw changed(device, path);
      }
    }
    if (read != size) {
      throw changed(device, path);
    }
    return read;
  }

  private static byte[] decode(String device, String data) {
    try {
      return Base64.getDecoder().decode(data == null ? "" : data);
    } catch (IllegalArgumentException e) {
      throw malformed(device);
    }
  }

  private Actions.ReadBytesResult chunk(String device, String path, long offset) {
    String commandId = "file_" + hex();
    HubMessage.Result result =
        hub.run(
            commandId,
            device,
            Action.READ_BYTES.wireName(),
            WireJson.tree(new Actions.ReadBytes(path, offset, Actions.MAX_CHUNK_BYTES)),
            Deadline.after(CHUNK_BUDGET, hub.clock()),
            (stream, data) -> {});
    if (!result.ok()) {
      ErrorBody error = result.error();
      if (FILE_CODES.contains(error.code())) {
        throw WebFiles.unreadable(error.message() + " (on device '" + device + "')");
      }
      throw new CodedException(error.code(), error.message());
    }
    try {
      return WireJson.bind(result.result(), Actions.ReadBytesResult.class);
    } catch (IllegalArgumentException e) {
      throw malformed(device);
    }
  }

  private static CodedException malformed(String device) {
    return new CodedException(
        Codes.INTERNAL, "Device '" + device + "' answered read_bytes with a malformed result.");
  }

  private static CodedException changed(String device, String path) {
    return WebFiles.unreadable(
        path + " changed on device '" + device + "' while it was read; send it again.");
  }

  private static String hex() {
    byte[] value = new byte[8];
    RANDOM.nextBytes(value);
    return HexFormat.of().formatHex(value);
  }
}
