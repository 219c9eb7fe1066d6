package dev.cortex.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The processes of this machine as Linux's {@code /proc} lists them: which belong to a process
 * group, leaving out zombies (they have ended; only their exit status waits for a parent that may
 * never collect it, as under an init that does not reap orphans).
 */
final class ProcessTable {
  private static final Path PROC = Path.of("/proc");

  private ProcessTable() {}

  /** Whether {@code /proc} can be read here. */
  static boolean available() {
    return Files.isReadable(PROC.resolve("self").resolve("stat"));
  }

  /** One line of {@code /proc/PID/stat}, the fields Cortex uses. */
  record Entry(long pid, char state, long parent, long group, long session, long startTicks) {
    boolean zombie() {
      return state == 'Z' || state == 'X' || state == 'x';
    }
  }

  /** The live (not zombie) members of process group {@code group}. */
  static List<Entry> members(long group) {
    List<Entry> members = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
          continue;
        }
        read(Long.parseLong(name))
            .filter(e -> e.group() == group && !e.zombie())
            .ifPresent(members::add);
      }
    } catch (IOException | NumberFormatException e) {
      return members;
    }
    return members;
  }

  /** The stat line of {@code pid}, when that process exists. */
  static Optional<Entry> read(long pid) {
    String line;
    try {
      line =
          Files.readString(
              PROC.resolve(Long.toString(pid)).resolve("stat"), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
    return parse(line);
  }

  /**
   * Parses a stat line: {@code pid (comm) state ppid pgrp session ... starttime ...}; the command
   * name may hold spaces and parentheses, so fields are counted from its last ')'.
   */
  static Optional<Entry> parse(String line) {
    int close = line.lastIndexOf(')');
    int open = line.indexOf(' ');
    if (close < 0 || open < 0) {
      return Optional.empty();
    }
    String[] fields = line.substring(close + 2).trim().split(" ");
    if (fields.length < 20 || fields[0].isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(
          new Entry(
              Long.parseLong(line.substring(0, open)),
              fields[0].charAt(0),
              Long.parseLong(fields[1]),
              Long.parseLong(fields[2]),
              Long.parseLong(fields[3]),
              Long.parseLong(fields[19])));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
