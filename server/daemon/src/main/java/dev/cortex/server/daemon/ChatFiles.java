package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.server.sessions.store.Session;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A file a chat platform's session sends: read from the session's working directory on the server's
 * machine (never the agent server's own files), or copied from a device into a scratch file that
 * goes when the sending is over.
 */
final class ChatFiles {
  private final DeviceFileReader devices;
  private final Path scratch;

  ChatFiles(DeviceFileReader devices, Path scratch) {
    this.devices = devices;
    this.scratch = scratch;
  }

  /** A file ready to send; closing it removes what was copied for it. */
  record Staged(Path path, long size, String name, Path copied) implements AutoCloseable {
    @Override
    public void close() {
      if (copied != null) {
        try {
          Files.deleteIfExists(copied);
        } catch (IOException e) {
          // the scratch folder is swept with the server's temporary files
        }
      }
    }
  }

  /**
   * {@code filePath} of {@code session} (on {@code device} when given), at most {@code maxBytes},
   * to be shown as {@code fileName} (default: the path's last part).
   *
   * @throws CodedException what stops it, in a sentence for the agent
   */
  Staged stage(
      Session session,
      String filePath,
      String fileName,
      String device,
      long maxBytes,
      String platform) {
    String name = fileName != null ? fileName : String.valueOf(Path.of(filePath).getFileName());
    if (device == null) {
      WebFiles.Source source = WebFiles.inside(session.workingDirectory(), filePath, maxBytes);
      return new Staged(source.path(), source.size(), name, null);
    }
    Path fetched = null;
    try {
      Path folder = scratch.resolve(platform);
      Files.createDirectories(folder);
      fetched = Files.createTempFile(folder, platform + "-", ".part");
      long size = devices.copy(device, filePath, maxBytes, fetched);
      return new Staged(fetched, size, name, fetched);
    } catch (IOException e) {
      new Staged(null, 0, name, fetched).close();
      throw new CodedException(
          ErrorCodes.INTERNAL, "The file could not be staged for " + platform + ".");
    } catch (RuntimeException e) {
      new Staged(null, 0, name, fetched).close();
      throw e;
    }
  }
}
