package dev.cortex.server.daemon;

import dev.cortex.base.StartupException;
import dev.cortex.protocol.hub.Machines;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code machines.json}, kept current while the server runs: a changed file is read again, a valid
 * one replaces the registry (devices it no longer names are disconnected), and an invalid one is
 * reported in the log while the last good registry stays in force. At start an invalid file stops
 * the server. A device looked up and not found makes the file be read again first when it changed,
 * so that a device {@code cortex server enroll} has just added is admitted at once, not at the next
 * look of the sweeper.
 */
final class MachineRegistry implements DeviceHub.Registry {
  private static final Logger log = LoggerFactory.getLogger(MachineRegistry.class);

  private final Path file;
  private volatile Machines current;
  private volatile Runnable onReload = () -> {};

  /** The file as last seen: its identity, modification time and size; null when absent. */
  private Object seen;

  MachineRegistry(Path file) {
    this.file = Objects.requireNonNull(file, "file");
    try {
      this.current = Machines.read(file);
    } catch (IllegalArgumentException e) {
      throw new StartupException(e.getMessage() + " (" + file + ")");
    }
    seen = look();
  }

  @Override
  public Machines current() {
    return current;
  }

  @Override
  public Machines.Machine find(String name) {
    Machines.Machine machine = current.get(name);
    if (machine == null) {
      // Whoever read the file (this look, or the sweeper's that this one waited for), the registry
      // in force after it is the one to ask: asking only after a reload of one's own missed the
      // device when the sweeper had just read the new file but not yet put it in force.
      reloadIfChanged();
      machine = current.get(name);
    }
    return machine;
  }

  /**
   * Reads the file now, changed or not (as {@code cortex server enroll} asks after writing it), and
   * returns the device {@code name} of the registry then in force, or null.
   */
  Machines.Machine readNow(String name) {
    synchronized (this) {
      seen = null;
    }
    reloadIfChanged();
    return current.get(name);
  }

  /** Runs after every reload that put a new registry in force (the hub reconciles its devices). */
  void onReload(Runnable action) {
    this.onReload = Objects.requireNonNull(action, "action");
  }

  Path file() {
    return file;
  }

  /**
   * Reads the file again if it changed since last seen.
   *
   * @return whether a new registry is in force
   */
  boolean reloadIfChanged() {
    synchronized (this) {
      Object now = look();
      if (Objects.equals(now, seen)) {
        return false;
      }
      seen = now;
      try {
        Machines loaded = Machines.read(file);
        current = loaded;
        log.info("{} reloaded: {} device(s) registered", Machines.FILE, loaded.enabled().size());
      } catch (IllegalArgumentException e) {
        log.error(
            "{}; the previous registry stays in force until the file is fixed", e.getMessage());
        return false;
      }
    }
    onReload.run();
    return true;
  }

  /** The file's identity (replaced files have a new one), modification time and size. */
  private Object look() {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      return java.util.List.of(
          String.valueOf(attributes.fileKey()), attributes.lastModifiedTime(), attributes.size());
    } catch (IOException e) {
      return null;
    }
  }
}
