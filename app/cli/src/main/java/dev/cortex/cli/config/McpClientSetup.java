package dev.cortex.cli.config;

import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.config.McpClient.Scope;
import dev.cortex.cli.config.McpClientFile.Change;
import dev.cortex.cli.config.McpClientFile.Result;
import dev.cortex.cli.config.McpClientFile.Unmergeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code cortex config mcp --client}: adds the {@code cortex} server to an MCP client's own
 * configuration file (a backup of the previous file first), removes it again, or prints it, and
 * shows the {@code claude mcp add} and {@code code --add-mcp} commands that do the same.
 */
final class McpClientSetup {
  private McpClientSetup() {}

  /**
   * What was asked: for which client and scope, to print, to remove, and the entry's server: its
   * arguments after {@code mcp} ({@code --bundles}, {@code --read-only}, {@code --tools}, {@code
   * --exclude-tools}) and its environment (the Cortex home, when not the default).
   */
  record Request(
      McpClient client,
      Scope scope,
      boolean print,
      boolean remove,
      List<String> serverArgs,
      Map<String, String> serverEnv) {
    Request {
      serverArgs = List.copyOf(serverArgs);
      serverEnv = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(serverEnv));
    }
  }

  /** The suffix of the copy of a file as it was before cortex last changed it. */
  static final String BACKUP_SUFFIX = ".cortex-backup";

  /**
   * How many copies of a file's earlier versions are kept: {@code FILE.cortex-backup} (the newest),
   * then {@code FILE.cortex-backup.1} and {@code FILE.cortex-backup.2}.
   */
  static final int BACKUPS = 3;

  static int run(Io io, McpClientPaths paths, Request request, List<String> launcher) {
    McpClient client = request.client();
    Path file = client.file(request.scope(), paths).orElse(null);
    if (file == null) {
      io.err()
          .println("cortex config: " + client.title() + " has no project scope; use --scope user.");
      return CortexCommand.USAGE;
    }
    List<String> command = new ArrayList<>(launcher);
    command.add("mcp");
    command.addAll(request.serverArgs());
    ObjectNode entry = McpClientFile.entry(client, command, request.serverEnv());
    if (request.print()) {
      io.out().println("# " + client.title() + ": " + file);
      io.out().print(McpClientFile.alone(client, entry));
      printCommands(io, paths.os(), request, command);
      return CortexCommand.OK;
    }
    try {
      return change(io, request, file, entry, paths.os(), command);
    } catch (Unmergeable e) {
      io.err().println("cortex config: " + file + " " + e.getMessage() + ". Nothing was changed.");
      return CortexCommand.FAILED;
    } catch (IOException e) {
      io.err().println("cortex config: cannot update " + file + ": " + reason(e));
      return CortexCommand.FAILED;
    }
  }

  private static int change(
      Io io,
      Request request,
      Path file,
      ObjectNode entry,
      McpClientPaths.Os os,
      List<String> command)
      throws Unmergeable, IOException {
    McpClient client = request.client();
    Path target = Files.exists(file) ? file.toRealPath() : file;
    String text = Files.exists(target) ? Files.readString(target, StandardCharsets.UTF_8) : null;
    Result result =
        request.remove()
            ? McpClientFile.remove(client, text)
            : McpClientFile.add(client, text, entry);
    String backup = "";
    if (result.change().rewrites()) {
      if (text != null) {
        backup = " (the file as it was: " + backUp(target) + ")";
      }
      replace(target, result.text());
    }
    io.out().println(client.title() + ": " + describe(result.change(), file) + backup);
    if (result.change().rewrites()) {
      io.out().println("Restart " + client.title() + " (or reload its MCP servers) to see it.");
    }
    if (!request.remove()) {
      printCommands(io, os, request, command);
    }
    return CortexCommand.OK;
  }

  /**
   * Copies {@code file} to {@code FILE.cortex-backup} with its permissions, after moving the
   * earlier copies one generation down ({@code .cortex-backup.1}, {@code .2}); the oldest beyond
   * {@link #BACKUPS} goes.
   *
   * @return the new copy
   */
  static Path backUp(Path file) throws IOException {
    Path newest = file.resolveSibling(file.getFileName() + BACKUP_SUFFIX);
    for (int generation = BACKUPS - 1; generation >= 1; generation--) {
      Path older = generation(newest, generation);
      Path newer = generation(newest, generation - 1);
      if (Files.exists(newer, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        Files.move(newer, older, StandardCopyOption.REPLACE_EXISTING);
      }
    }
    Files.copy(
        file, newest, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
    return newest;
  }

  private static Path generation(Path newest, int generation) {
    return generation == 0
        ? newest
        : newest.resolveSibling(newest.getFileName() + "." + generation);
  }

  private static String describe(Change change, Path file) {
    return switch (change) {
      case ADDED -> "added the " + McpClientFile.SERVER + " server to " + file;
      case UPDATED -> "updated the " + McpClientFile.SERVER + " server in " + file;
      case UNCHANGED -> "the " + McpClientFile.SERVER + " server in " + file + " is up to date";
      case REMOVED -> "removed the " + McpClientFile.SERVER + " server from " + file;
      case ABSENT -> "no " + McpClientFile.SERVER + " server in " + file + ": nothing to remove";
    };
  }

  /** The clients' own commands that add the same server. */
  private static void printCommands(
      Io io, McpClientPaths.Os os, Request request, List<String> command) {
    List<String> claude =
        new ArrayList<>(
            List.of(
                "claude",
                "mcp",
                "add",
                "--scope",
                request.scope().name().toLowerCase(java.util.Locale.ROOT)));
    request
        .serverEnv()
        .forEach((name, value) -> claude.addAll(List.of("--env", name + "=" + value)));
    claude.add(McpClientFile.SERVER);
    claude.add("--");
    claude.addAll(command);
    String vscode =
        McpClientFile.compact(
            McpClientFile.named(
                McpClientFile.entry(McpClient.VSCODE, command, request.serverEnv())));
    io.out().println();
    io.out().println("The same from the clients' own command lines:");
    io.out().println("  " + join(claude, os));
    io.out().println("  " + join(List.of("code", "--add-mcp", vscode), os));
  }

  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./\\\\-]+");

  /** A command line for the person's shell: POSIX quoting, or cmd.exe's on Windows. */
  static String join(List<String> words, McpClientPaths.Os os) {
    List<String> quoted = new ArrayList<>();
    for (String word : words) {
      if (PLAIN.matcher(word).matches()) {
        quoted.add(word);
      } else if (os == McpClientPaths.Os.WINDOWS) {
        quoted.add("\"" + word.replace("\"", "\\\"") + "\"");
      } else {
        quoted.add("'" + word.replace("'", "'\\''") + "'");
      }
    }
    return String.join(" ", quoted);
  }

  /** Writes {@code text} over {@code file} atomically, keeping the file's permissions. */
  private static void replace(Path file, String text) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path temp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
    try {
      if (Files.exists(file)
          && Files.getFileAttributeView(file, PosixFileAttributeView.class) != null) {
        Files.setPosixFilePermissions(temp, Files.getPosixFilePermissions(file));
      }
      Files.writeString(temp, text, StandardCharsets.UTF_8);
      try {
        Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  private static String reason(IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
