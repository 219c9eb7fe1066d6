package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.protocol.session.Web;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The files of the {@code web} group on this machine: a file to send, found by the path the agent
 * gave (relative to the session's working directory, or absolute), checked before anything is
 * copied; its copy under the session's outputs with a name no other file there has. Messages name
 * the path as the agent gave it, never a directory of the server.
 */
final class WebFiles {
  private WebFiles() {}

  /** A file found and checked: where it is, its size and its first bytes. */
  record Source(String given, Path path, long size, byte[] head) {}

  static Source source(Path workingDirectory, String given, long maxBytes) {
    Path file;
    try {
      file = workingDirectory.resolve(given).normalize();
    } catch (InvalidPathException e) {
      throw unreadable("There is no file " + given + ".");
    }
    if (!Files.isRegularFile(file) || !Files.isReadable(file)) {
      throw unreadable(
          "There is no readable file "
              + given
              + " (a relative path is taken from the session's working directory).");
    }
    try {
      long size = Files.size(file);
      if (size > maxBytes) {
        throw unreadable(
            "The file " + given + " is larger than " + maxBytes / (1024 * 1024) + " MB.");
      }
      byte[] head;
      try (InputStream in = Files.newInputStream(file)) {
        head = in.readNBytes(512);
      }
      return new Source(given, file, size, head);
    } catch (IOException e) {
      throw unreadable("The file " + given + " could not be read.");
    }
  }

  /**
   * A file inside the working directory, by its path and by any link it goes through (as a plan
   * file is); a file outside is refused before it is read.
   */
  static Source inside(Path workingDirectory, String given, long maxBytes) {
    Source source = source(workingDirectory, given, maxBytes);
    try {
      Path base = workingDirectory.toRealPath();
      if (!source.path().toRealPath().startsWith(base)) {
        throw unreadable(
            "The file " + given + " is outside the session's working directory; write it there.");
      }
    } catch (IOException e) {
      throw unreadable("The file " + given + " could not be read.");
    }
    return source;
  }

  /**
   * A new empty file named {@code name} in {@code dir}, or {@code stem (2).ext} and so on when the
   * name is taken.
   */
  static Path freshFile(Path dir, String name) throws IOException {
    Files.createDirectories(dir);
    int dot = name.lastIndexOf('.');
    String stem = dot <= 0 ? name : name.substring(0, dot);
    String ext = dot <= 0 ? "" : name.substring(dot);
    for (int n = 1; ; n++) {
      Path candidate = dir.resolve(n == 1 ? name : stem + " (" + n + ")" + ext);
      try {
        return Files.createFile(candidate);
      } catch (FileAlreadyExistsException e) {
        // the next number
      }
    }
  }

  static void copy(Source source, Path target) throws IOException {
    Files.copy(source.path(), target, StandardCopyOption.REPLACE_EXISTING);
  }

  static CodedException unreadable(String message) {
    return new CodedException(Web.Codes.FILE_UNREADABLE, message);
  }
}
