package dev.cortex.mcp.tool;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.base.Redactor;
import dev.cortex.mcp.caller.SessionIdentity;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * An append-only log of tool calls, one JSON line each: when, for which session, which tool, the
 * arguments' names and sizes (their values only when configured, and then with secrets taken out),
 * the outcome and how long it took. The file is owner-only and rotated once it passes its size cap,
 * a few generations kept ({@code audit.jsonl.1} the newest). Several processes of one home append
 * to the same file: each line is written under a lock of the file, whole.
 *
 * <p>Writing it never fails a call: a trail that cannot be written says so once on stderr, and the
 * calls go on.
 */
public final class AuditTrail {
  private static final Logger log = LoggerFactory.getLogger(AuditTrail.class);

  /** A trail that keeps nothing. */
  public static final AuditTrail OFF = new AuditTrail(null, AuditSettings.DEFAULTS);

  private final Path file;
  private final AuditSettings settings;
  private final Redactor redactor;
  private volatile boolean warned;

  private AuditTrail(Path file, AuditSettings settings) {
    this.file = file;
    this.settings = settings;
    this.redactor = Redactor.marked();
  }

  /** The trail {@code settings} ask for in {@code home}; {@link #OFF} when they turn it off. */
  public static AuditTrail of(AuditSettings settings, CortexHome home) {
    if (!settings.enabled()) {
      return OFF;
    }
    Path file =
        settings.path() != null
            ? settings.path()
            : home.root().resolve("logs").resolve("audit.jsonl");
    return new AuditTrail(file, settings);
  }

  /** The file it writes, or null when off. */
  public Path file() {
    return file;
  }

  /** Records one call. {@code outcome} is the code of a failure, or {@code ok}. */
  void record(
      Instant at,
      SessionIdentity session,
      String tool,
      JsonNode arguments,
      String outcome,
      Duration took) {
    if (file == null) {
      return;
    }
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("at", at.toString());
    line.put("session", session.sessionId());
    line.put("tool", tool);
    line.put("arguments", arguments(arguments));
    line.put("outcome", outcome);
    line.put("duration_ms", took.toMillis());
    append(Json.write(line) + "\n");
  }

  /**
   * The arguments as names and sizes (characters of JSON); with values configured, the values too,
   * secrets taken out.
   */
  private Object arguments(JsonNode arguments) {
    if (arguments == null || !arguments.isObject()) {
      return Map.of();
    }
    if (settings.values()) {
      return Json.mapper().readTree(redactor.redact(Json.write(arguments)));
    }
    Map<String, Integer> sizes = new LinkedHashMap<>();
    arguments.properties().forEach(p -> sizes.put(p.getKey(), Json.write(p.getValue()).length()));
    return sizes;
  }

  private synchronized void append(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    try {
      CortexHome.ensureDirectory(file.toAbsolutePath().getParent());
      try (FileChannel channel = open()) {
        FileLock lock = channel.lock();
        try {
          if (channel.size() > 0 && channel.size() + bytes.length > settings.maxBytes()) {
            rotate();
            try (FileChannel fresh = open()) {
              FileLock freshLock = fresh.lock();
              try {
                write(fresh, bytes);
              } finally {
                freshLock.release();
              }
            }
          } else {
            write(channel, bytes);
          }
        } finally {
          lock.release();
        }
      }
    } catch (IOException | RuntimeException e) {
      if (!warned) {
        warned = true;
        log.warn("cannot write the audit trail {}: {}", file, e.toString());
      }
    }
  }

  private FileChannel open() throws IOException {
    if (!Files.exists(file)) {
      try {
        Files.createFile(
            file,
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
      } catch (java.nio.file.FileAlreadyExistsException | UnsupportedOperationException e) {
        // made by another process meanwhile, or a file system without POSIX permissions
      }
    }
    return FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static void write(FileChannel channel, byte[] bytes) throws IOException {
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      channel.write(buffer);
    }
  }

  /** Shifts {@code audit.jsonl} to {@code .1}, {@code .1} to {@code .2} …, dropping the oldest. */
  private void rotate() throws IOException {
    Files.deleteIfExists(generation(settings.generations()));
    for (int i = settings.generations() - 1; i >= 1; i--) {
      Path older = generation(i);
      if (Files.exists(older)) {
        Files.move(older, generation(i + 1), StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Files.move(file, generation(1), StandardCopyOption.REPLACE_EXISTING);
  }

  private Path generation(int n) {
    return file.resolveSibling(file.getFileName() + "." + n);
  }
}
