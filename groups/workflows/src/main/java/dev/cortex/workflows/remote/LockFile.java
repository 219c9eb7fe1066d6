package dev.cortex.workflows.remote;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;

/** An exclusive lock on an owner-only file, held by the processes that share a Cortex home. */
final class LockFile implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private LockFile(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /** Blocks until this process holds the lock on {@code file}, creating it if needed. */
  static LockFile acquire(Path file) throws IOException {
    if (!Files.exists(file)
        && Files.getFileAttributeView(file.getParent(), PosixFileAttributeView.class) != null) {
      try {
        Files.createFile(
            file,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (FileAlreadyExistsException raced) {
        // another process made it first
      }
    }
    FileChannel channel =
        FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    try {
      return new LockFile(channel, channel.lock());
    } catch (IOException | RuntimeException e) {
      channel.close();
      throw e;
    }
  }

  @Override
  public void close() throws IOException {
    try {
      lock.release();
    } finally {
      channel.close();
    }
  }
}
