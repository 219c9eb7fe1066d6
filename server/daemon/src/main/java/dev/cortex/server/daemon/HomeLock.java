package dev.cortex.server.daemon;

import dev.cortex.base.StartupException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One agent server per home: the lock on {@code data/server.lock}, held while the server runs (the
 * system lets it go when the process ends, even by kill -9). A second server on the same home would
 * otherwise recover the first one's running sessions as if they had been cut off.
 */
final class HomeLock implements AutoCloseable {
  static final String FILE = "server.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private HomeLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock of the home whose data folder is {@code dataDir}.
   *
   * @throws StartupException when another server holds it
   */
  static HomeLock take(Path dataDir) {
    Path file = dataDir.resolve(FILE);
    FileChannel channel = null;
    try {
      Files.createDirectories(dataDir);
      channel =
          FileChannel.open(
              file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock = tryLock(channel);
      if (lock == null) {
        String holder = Files.readString(file, StandardCharsets.UTF_8).strip();
        channel.close();
        throw new StartupException(
            "An agent server already runs on this home"
                + (holder.isEmpty() ? "" : " (pid " + holder + ")")
                + ": stop it first, or give this one another CORTEX_HOME.");
      }
      channel.truncate(0);
      channel.write(
          ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)));
      channel.force(false);
      return new HomeLock(channel, lock);
    } catch (IOException e) {
      closeQuietly(channel);
      throw new StartupException(
          "Cannot take the agent server's lock in the home's data folder: " + e.getMessage());
    }
  }

  private static FileLock tryLock(FileChannel channel) throws IOException {
    try {
      return channel.tryLock();
    } catch (OverlappingFileLockException e) {
      return null; // held by this process, by a server not stopped yet
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel == null) {
      return;
    }
    try {
      channel.close();
    } catch (IOException e) {
      // nothing more to let go of
    }
  }

  /** Lets the lock go (the file stays, empty of meaning). */
  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // the channel's close lets it go too
    }
    closeQuietly(channel);
  }
}
