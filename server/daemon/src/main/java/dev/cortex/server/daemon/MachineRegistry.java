package dev.cortex.server.daemon;

import dev.cortex.base.StartupException;
import dev.cortex.protocol.hub.Machines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code machines.json}, kept current while the server runs: a changed file is read again, a valid
 * one replaces the registry (devices it no longer names are disconnected), and an invalid one is
 * reported in the log while the last good registry stays in force. At start an invalid file stops
 * the server.
 */
final class MachineRegistry {
  private static final Logger log = LoggerFactory.getLogger(MachineRegistry.class);

  private final Path file;
  private volatile Machines current;
  private FileTime seenModified;
  private long seenSize = -1;

  MachineRegistry(Path file) {
    this.file = Objects.requireNonNull(file, "file");
    try {
      this.current = Machines.read(file);
    } catch (IllegalArgumentException e) {
      throw new StartupException(e.getMessage() + " (" + file + ")");
    }
    remember();
  }

  Machines current() {
    return current;
  }

  Path file() {
    return file;
  }

  /**
   * Reads the file again if it changed since last seen.
   *
   * @return whether a new registry is in force
   */
  synchronized boolean reloadIfChanged() {
    FileTime modified = modified();
    long size = size();
    if (Objects.equals(modified, seenModified) && size == seenSize) {
      return false;
    }
    seenModified = modified;
    seenSize = size;
    try {
      Machines loaded = Machines.read(file);
      current = loaded;
      log.info("{} reloaded: {} device(s) registered", Machines.FILE, loaded.enabled().size());
      return true;
    } catch (IllegalArgumentException e) {
      log.error("{}; the previous registry stays in force until the file is fixed", e.getMessage());
      return false;
    }
  }

  private void remember() {
    seenModified = modified();
    seenSize = size();
  }

  private FileTime modified() {
    try {
      return Files.exists(file) ? Files.getLastModifiedTime(file) : null;
    } catch (IOException e) {
      return null;
    }
  }

  private long size() {
    try {
      return Files.exists(file) ? Files.size(file) : -1;
    } catch (IOException e) {
      return -1;
    }
  }
}
