package dev.cortex.protocol.webhook;

import dev.cortex.protocol.WireJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * A spool directory of signals ({@code $CORTEX_HOME/spool/}, on the server's machine and on each
 * device): one JSON file per signal, written atomically, taken oldest first, deleted once the
 * server has answered, and moved to {@code rejected/} with a {@code NAME.reason} file beside it
 * (for {@code NAME.json}) when it cannot be read or the server refuses it, so that no file is
 * retried for ever.
 *
 * <p>A file holds the fields of {@code POST /webhook/signal}: {@code id}, {@code secret}, and
 * optionally {@code status}, {@code message}, {@code member}, {@code data} and {@code signal_id}.
 * Without a {@code signal_id}, the file's name (without {@code .json}) is the signal's id, so a
 * file taken twice counts once.
 */
public final class Spool {
  /** The spool's folder under a Cortex home. */
  public static final String DIR = "spool";

  /** Where refused and unreadable files go. */
  public static final String REJECTED = "rejected";

  /** The largest spool file read. */
  public static final int MAX_FILE_BYTES = 64 * 1024;

  /** How many rejected files are kept; older ones are deleted. */
  public static final int KEEP_REJECTED = 200;

  /** Unreadable files younger than this may still be being written, and are left for later. */
  static final Duration SETTLE = Duration.ofSeconds(2);

  private final Path dir;

  public Spool(Path dir) {
    this.dir = dir;
  }

  public Path dir() {
    return dir;
  }

  /** Writes a signal as a new spool file, atomically; returns the file. */
  public Path write(Signals.Signal signal) {
    String name =
        signal.signalId() != null ? signal.signalId() : "sig-" + UUID.randomUUID().toString();
    Signals.Signal stored = signal.withSignalId(name);
    try {
      Files.createDirectories(dir);
      Path file = dir.resolve(name + ".json");
      Path temp = Files.createTempFile(dir, "." + name, ".tmp");
      try {
        Files.writeString(
            temp, WireJson.mapper().writeValueAsString(stored), StandardCharsets.UTF_8);
        try {
          Files.move(
              temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
          Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
        }
      } finally {
        Files.deleteIfExists(temp);
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write to the spool " + dir, e);
    }
  }

  /** A file of the spool, read: its signal, or why it cannot be taken. */
  public record Entry(Path file, Signals.Signal signal, String problem) {
    /** The file's name, which the server's answer over the hub names. */
    public String name() {
      return file.getFileName().toString();
    }
  }

  /**
   * The files waiting, oldest first, at most {@code limit}; files that cannot be read and are old
   * enough to be complete come back with their problem, younger ones are left for a later look.
   */
  public List<Entry> take(int limit, Instant now) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "*.json")) {
      for (Path file : stream) {
        if (!file.getFileName().toString().startsWith(".") && Files.isRegularFile(file)) {
          files.add(file);
        }
      }
    } catch (IOException e) {
      return List.of();
    }
    files.sort(Comparator.comparing(Spool::modified).thenComparing(Path::toString));
    List<Entry> entries = new ArrayList<>();
    for (Path file : files) {
      if (entries.size() >= limit) {
        break;
      }
      Entry entry = read(file);
      if (entry == null) {
        continue;
      }
      if (entry.problem() != null && modified(file).toInstant().isAfter(now.minus(SETTLE))) {
        continue;
      }
      entries.add(entry);
    }
    return entries;
  }

  private static FileTime modified(Path file) {
    try {
      return Files.getLastModifiedTime(file);
    } catch (IOException e) {
      return FileTime.fromMillis(0);
    }
  }

  /** The file read, or null when it is gone. */
  static Entry read(Path file) {
    byte[] bytes;
    try {
      if (Files.size(file) > MAX_FILE_BYTES) {
        return new Entry(file, null, "the file is larger than " + MAX_FILE_BYTES + " bytes");
      }
      bytes = Files.readAllBytes(file);
    } catch (java.nio.file.NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      return new Entry(file, null, "the file cannot be read: " + e.getMessage());
    }
    JsonNode node;
    try {
      node = WireJson.mapper().readTree(bytes);
    } catch (JacksonException e) {
      return new Entry(file, null, "the file is not JSON: " + e.getOriginalMessage());
    }
    if (node == null || !node.isObject()) {
      return new Entry(file, null, "the file is not a JSON object");
    }
    for (String text : List.of("id", "secret", "status", "message", "member", "signal_id")) {
      if (node.has(text) && !node.get(text).isString() && !node.get(text).isNull()) {
        return new Entry(file, null, "'" + text + "' must be a string");
      }
    }
    Signals.Signal signal;
    try {
      signal = WireJson.mapper().treeToValue(node, Signals.Signal.class);
    } catch (JacksonException e) {
      return new Entry(file, null, "the file is not a signal: " + e.getOriginalMessage());
    }
    if (signal.signalId() == null) {
      String name = file.getFileName().toString();
      String stem = name.substring(0, name.length() - ".json".length());
      signal = signal.withSignalId(Signals.SIGNAL_ID.matcher(stem).matches() ? stem : null);
    }
    List<String> problems = Signals.problems(signal);
    if (!problems.isEmpty()) {
      return new Entry(file, null, String.join("; ", problems));
    }
    return new Entry(file, signal, null);
  }

  /** The server took the file's signal: it goes. */
  public void done(Path file) {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + file, e);
    }
  }

  /** Moves {@code NAME.json} aside, with the reason in {@code NAME.reason} beside it. */
  public void reject(Path file, String reason) {
    Path rejected = dir.resolve(REJECTED);
    try {
      Files.createDirectories(rejected);
      Path target = rejected.resolve(file.getFileName());
      Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
      Files.writeString(reasonFile(target), reason + "\n", StandardCharsets.UTF_8);
      prune(rejected);
    } catch (java.nio.file.NoSuchFileException e) {
      // taken by someone else meanwhile
    } catch (IOException e) {
      throw new UncheckedIOException("cannot move " + file + " aside", e);
    }
  }

  private static void prune(Path rejected) throws IOException {
    List<Path> files = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(rejected, "*.json")) {
      stream.forEach(files::add);
    }
    if (files.size() <= KEEP_REJECTED) {
      return;
    }
    files.sort(Comparator.comparing(Spool::modified));
    for (Path old : files.subList(0, files.size() - KEEP_REJECTED)) {
      Files.deleteIfExists(old);
      Files.deleteIfExists(reasonFile(old));
    }
  }

  /** The reason file beside a rejected {@code NAME.json}: {@code NAME.reason}. */
  private static Path reasonFile(Path rejected) {
    String name = rejected.getFileName().toString();
    String stem = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
    return rejected.resolveSibling(stem + ".reason");
  }
}
