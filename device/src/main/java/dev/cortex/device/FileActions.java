package dev.cortex.device;

import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.util.Base64;
import java.util.List;

/**
 * The file actions: read (text with line numbers, images and PDFs as bytes), exact bytes of any
 * file a chunk at a time, write and edit, on paths resolved as the shell resolves them ({@link
 * Paths#file}). Writes go to a sibling first and are renamed over the file, keeping its
 * permissions; a file with CRLF line endings keeps them when the agent sends LF.
 */
final class FileActions {
  private final AgentsChain agents;

  FileActions(AgentsChain agents) {
    this.agents = agents;
  }

  Actions.ReadResult read(Actions.Read params) throws ActionException {
    Path path = Paths.file(params.filePath(), "file_path", false);
    if (params.offset() != null && params.offset() < 1) {
      throw ActionException.invalid(
          "offset is a 1-based line number; got " + params.offset() + ".");
    }
    if (params.limit() != null && params.limit() < 1) {
      throw ActionException.invalid("limit must be at least 1; got " + params.limit() + ".");
    }
    long size = regularFile(path);
    if (size > Actions.MAX_READ_BYTES) {
      throw new ActionException(
          Codes.TOO_LARGE,
          path
              + " is "
              + size(size)
              + ", more than remote_read returns (10 MB). Read part of it with remote_bash (e.g."
              + " head, tail or sed -n).");
    }
    byte[] bytes = readAll(path);
    FileKind kind = FileKind.of(bytes, Math.min(bytes.length, 8192));
    List<Actions.AgentsFile> chain = params.agentsMd() ? agents.of(path) : List.of();
    if (kind.media()) {
      return new Actions.ReadResult(
          kind.kind,
          null,
          0,
          0,
          0,
          false,
          kind.mimeType,
          Base64.getEncoder().encodeToString(bytes),
          size,
          chain);
    }
    if (kind == FileKind.BINARY) {
      throw ActionException.invalid(
          path + " is a binary file (" + size(size) + "); only text, images and PDFs are read.");
    }
    if (size > Actions.MAX_TEXT_BYTES_WITHOUT_LIMIT && params.limit() == null) {
      throw new ActionException(
          Codes.TOO_LARGE,
          path
              + " is "
              + size(size)
              + " of text, more than remote_read returns without a limit ("
              + size(Actions.MAX_TEXT_BYTES_WITHOUT_LIMIT)
              + "). Read it in parts: offset 1 with limit "
              + Actions.DEFAULT_READ_LINES
              + ", then offset "
              + (Actions.DEFAULT_READ_LINES + 1)
              + ", and so on.");
    }
    return text(path, new String(bytes, StandardCharsets.UTF_8), params, size, chain);
  }

  /**
   * Exact bytes of a file from {@code offset}, at most {@code length}; files up to {@link
   * Actions#MAX_READ_BYTES_FILE} (whoever reads it whole reads it chunk by chunk).
   */
  Actions.ReadBytesResult readBytes(Actions.ReadBytes params) throws ActionException {
    Path path = Paths.file(params.filePath(), "file_path", false);
    if (params.offset() == null || params.offset() < 0) {
      throw ActionException.invalid("offset is a byte offset of 0 or more; got " + params.offset());
    }
    if (params.length() == null
        || params.length() < 1
        || params.length() > Actions.MAX_CHUNK_BYTES) {
      throw ActionException.invalid(
          "length is 1 to " + Actions.MAX_CHUNK_BYTES + " bytes; got " + params.length() + ".");
    }
    if (Files.isDirectory(path)) {
      throw ActionException.invalid(path + " is a directory, not a file.");
    }
    if (Files.exists(path) && !Files.isRegularFile(path)) {
      throw ActionException.invalid(path + " is not a regular file.");
    }
    try (SeekableByteChannel channel = Files.newByteChannel(path)) {
      long size = channel.size();
      if (size > Actions.MAX_READ_BYTES_FILE) {
        throw new ActionException(
            Codes.TOO_LARGE,
            path + " is " + size(size) + ", more than " + size(Actions.MAX_READ_BYTES_FILE) + ".");
      }
      ByteBuffer buffer =
          ByteBuffer.allocate((int) Math.min(params.length(), Math.max(0, size - params.offset())));
      channel.position(Math.min(params.offset(), size));
      while (buffer.hasRemaining() && channel.read(buffer) > 0) {
        // fill the chunk
      }
      byte[] bytes = java.util.Arrays.copyOf(buffer.array(), buffer.position());
      boolean eof = params.offset() + bytes.length >= size;
      return new Actions.ReadBytesResult(Base64.getEncoder().encodeToString(bytes), size, eof);
    } catch (IOException e) {
      throw Paths.failure(path, e);
    }
  }

  private static Actions.ReadResult text(
      Path path, String text, Actions.Read params, long size, List<Actions.AgentsFile> chain)
      throws ActionException {
    String[] lines = text.isEmpty() ? new String[0] : text.split("\n", -1);
    int total = lines.length;
    if (total > 0 && lines[total - 1].isEmpty()) {
      total--;
    }
    int start = params.offset() == null ? 1 : params.offset();
    int limit = params.limit() == null ? Actions.DEFAULT_READ_LINES : params.limit();
    if (start > Math.max(total, 1)) {
      throw ActionException.invalid(
          path + " has " + total + " lines; offset " + start + " is past its end.");
    }
    StringBuilder out = new StringBuilder();
    boolean cut = false;
    int end = Math.min(total, start - 1 + limit);
    for (int i = start - 1; i < end; i++) {
      String line = lines[i];
      if (line.endsWith("\r")) {
        line = line.substring(0, line.length() - 1);
      }
      if (line.length() > Actions.MAX_LINE_CHARS) {
        line = line.substring(0, Actions.MAX_LINE_CHARS) + "… [line cut]";
        cut = true;
      }
      out.append(String.format("%6d\t", i + 1)).append(line).append('\n');
    }
    return new Actions.ReadResult(
        "text",
        out.toString(),
        start,
        Math.max(0, end - (start - 1)),
        total,
        cut,
        "text/plain",
        null,
        size,
        chain);
  }

  Actions.WriteResult write(Actions.Write params) throws ActionException {
    Path path = Paths.file(params.filePath(), "file_path", true);
    if (params.content() == null) {
      throw ActionException.invalid("content is required (it may be empty).");
    }
    if (Files.isDirectory(path)) {
      throw ActionException.invalid(path + " is a directory.");
    }
    boolean exists = Files.exists(path);
    String content = params.content();
    String endings = "lf";
    if (exists && usesCrlf(path) && !content.contains("\r\n")) {
      content = content.replace("\n", "\r\n");
      endings = "crlf";
    } else if (content.contains("\r\n")) {
      endings = "crlf";
    }
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    Path target = Paths.linked(path, "file_path");
    try {
      Path parent = target.getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      replace(target, bytes);
    } catch (IOException e) {
      throw Paths.failure(target, e);
    }
    return new Actions.WriteResult(
        !exists, bytes.length, endings, params.agentsMd() ? agents.of(path) : List.of());
  }

  Actions.EditResult edit(Actions.Edit params) throws ActionException {
    Path path = Paths.file(params.filePath(), "file_path", false);
    if (params.oldString() == null || params.oldString().isEmpty()) {
      throw ActionException.invalid(
          "old_string must not be empty; to create or overwrite a file use remote_write.");
    }
    if (params.newString() == null) {
      throw ActionException.invalid("new_string is required (it may be empty).");
    }
    if (params.oldString().equals(params.newString())) {
      throw ActionException.invalid("old_string and new_string are the same: nothing to change.");
    }
    long size = regularFile(path);
    if (size > Actions.MAX_READ_BYTES) {
      throw new ActionException(
          Codes.TOO_LARGE, path + " is " + size(size) + ", too large to edit.");
    }
    byte[] bytes = readAll(path);
    if (FileKind.of(bytes, Math.min(bytes.length, 8192)) != FileKind.TEXT) {
      throw ActionException.invalid(path + " is not a text file.");
    }
    String text = new String(bytes, StandardCharsets.UTF_8);
    boolean crlf = text.contains("\r\n");
    String oldString = params.oldString();
    String newString = params.newString();
    if (crlf && !oldString.contains("\r\n") && oldString.contains("\n")) {
      oldString = oldString.replace("\n", "\r\n");
      newString = newString.replace("\r\n", "\n").replace("\n", "\r\n");
    }
    int count = occurrences(text, oldString);
    if (count == 0) {
      throw new ActionException(
          Codes.EDIT_MISMATCH,
          "old_string was not found in "
              + path
              + ". Read the file again and copy the text exactly, including white space.");
    }
    if (count > 1 && !params.replaceAll()) {
      throw new ActionException(
          Codes.EDIT_MISMATCH,
          "old_string appears "
              + count
              + " times in "
              + path
              + ". Add surrounding lines to make it unique, or set replace_all to change every one.");
    }
    String edited =
        params.replaceAll()
            ? text.replace(oldString, newString)
            : text.substring(0, text.indexOf(oldString))
                + newString
                + text.substring(text.indexOf(oldString) + oldString.length());
    try {
      replace(Paths.linked(path, "file_path"), edited.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw Paths.failure(path, e);
    }
    return new Actions.EditResult(
        params.replaceAll() ? count : 1,
        crlf ? "crlf" : "lf",
        params.agentsMd() ? agents.of(path) : List.of());
  }

  private static int occurrences(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
      count++;
    }
    return count;
  }

  private static long regularFile(Path path) throws ActionException {
    if (Files.isDirectory(path)) {
      throw ActionException.invalid(
          path + " is a directory: list it with remote_glob or remote_bash (ls).");
    }
    try {
      return Files.size(path);
    } catch (IOException e) {
      throw Paths.failure(path, e);
    }
  }

  private static byte[] readAll(Path path) throws ActionException {
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw Paths.failure(path, e);
    }
  }

  private static boolean usesCrlf(Path path) {
    try (InputStream in = Files.newInputStream(path)) {
      byte[] head = in.readNBytes(64 * 1024);
      String text = new String(head, StandardCharsets.UTF_8);
      int newline = text.indexOf('\n');
      return newline > 0 && text.charAt(newline - 1) == '\r';
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Writes a sibling, keeps the file's permissions, and renames it over the file ({@code path} is
   * no link: a link's target comes from {@link Paths#linked}).
   */
  private static void replace(Path path, byte[] bytes) throws IOException {
    Path dir = path.toAbsolutePath().getParent();
    Path temp = Files.createTempFile(dir, "." + path.getFileName(), ".tmp");
    try {
      Files.write(temp, bytes);
      PosixFileAttributeView from =
          Files.exists(path)
              ? Files.getFileAttributeView(
                  path, PosixFileAttributeView.class, LinkOption.NOFOLLOW_LINKS)
              : null;
      if (from != null) {
        Files.setPosixFilePermissions(temp, from.readAttributes().permissions());
      }
      try {
        Files.move(temp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(temp, path, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(temp);
    }
  }

  static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " bytes";
    }
    if (bytes < 1024 * 1024) {
      return String.format(java.util.Locale.ROOT, "%.1f KB", bytes / 1024.0);
    }
    return String.format(java.util.Locale.ROOT, "%.1f MB", bytes / (1024.0 * 1024));
  }
}
