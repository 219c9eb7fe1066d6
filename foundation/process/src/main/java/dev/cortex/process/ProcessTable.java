package dev.cortex.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The processes of this machine as Linux's {@code /proc} lists them: the members of a process
 * group, leaving out zombies (they have ended; only their exit status waits for a parent that may
 * never collect it, as under an init that does not reap orphans), and every process with its
 * parent, for following a run's descendants by ancestry.
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
    for (long pid : pids()) {
      read(pid).filter(e -> e.group() == group && !e.zombie()).ifPresent(members::add);
    }
    return members;
  }

  /** Every process of the machine, zombies included, by pid. */
  static Map<Long, Entry> all() {
    Map<Long, Entry> all = new HashMap<>();
    for (long pid : pids()) {
      read(pid).ifPresent(e -> all.put(pid, e));
    }
    return all;
  }

  /** The pids {@code /proc} lists now (reading no process's file). */
  static Set<Long> pids() {
    Set<Long> pids = new HashSet<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
          pids.add(Long.parseLong(name));
        }
      }
    } catch (IOException | NumberFormatException | java.nio.file.DirectoryIteratorException e) {
      return pids;
    }
    return pids;
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
