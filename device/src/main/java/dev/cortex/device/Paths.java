package dev.cortex.device;

import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** File paths as agents give them: absolute, and file-system errors as agents can act on them. */
final class Paths {
  private Paths() {}

  /** The absolute path {@code text} names, normalised. */
  static Path absolute(String text, String parameter) throws ActionException {
    return given(text, parameter).normalize();
  }

  /**
   * The file {@code text} names, as the file system (and so the shell) finds it: its folder by its
   * real path, symbolic links followed, so that {@code ..} after a link to a folder leads to that
   * folder's parent, not back to the link's; the file's own name is kept (a link stays a link, to
   * be read or written through).
   *
   * @param creating whether missing folders are to be made (a write): then the folders that exist
   *     are resolved and the rest taken as written; otherwise a missing folder is {@code
   *     NOT_FOUND}, as for the shell
   */
  static Path file(String text, String parameter, boolean creating) throws ActionException {
    Path path = given(text, parameter);
    Path name = path.getFileName();
    if (name == null) {
      return path;
    }
    Path folder = folder(path.getParent(), creating);
    if (folder == null) {
      throw new ActionException(Codes.NOT_FOUND, "No such file or directory: " + text);
    }
    Path file = folder.resolve(name.toString());
    return name.toString().equals(".") || name.toString().equals("..") ? file.normalize() : file;
  }

  /** Links followed at most, as the kernel's own limit ({@code ELOOP}). */
  static final int MAX_LINKS = 40;

  /**
   * The file a write to {@code path} (from {@link #file}) changes, as the shell writes through a
   * link: where its symbolic links lead, a dangling link's target included (the link stays); the
   * path itself when it is no link. A target's folder is found by the same rule as {@link #file}
   * but never made: a folder that does not exist is {@code NOT_FOUND}.
   */
  static Path linked(Path path, String parameter) throws ActionException {
    Path current = path;
    for (int links = 0; Files.isSymbolicLink(current); links++) {
      if (links == MAX_LINKS) {
        throw ActionException.invalid(
            parameter
                + " "
                + path
                + " leads through more than "
                + MAX_LINKS
                + " symbolic links (a loop?).");
      }
      try {
        current = current.getParent().resolve(Files.readSymbolicLink(current));
      } catch (IOException e) {
        throw failure(current, e);
      }
    }
    if (current.equals(path)) {
      return path;
    }
    Path folder = folder(current.getParent(), false);
    if (folder == null) {
      throw new ActionException(
          Codes.NOT_FOUND,
          "No such file or directory: "
              + current.getParent()
              + " (the folder of "
              + current.getFileName()
              + ", to which the symbolic link "
              + path
              + " leads).");
    }
    return folder.resolve(current.getFileName().toString());
  }

  /**
   * {@code dir} by the real path of its longest part that exists, then the rest as written (there
   * is no link in it to follow); null when not all of it exists and {@code creating} is false.
   */
  private static Path folder(Path dir, boolean creating) {
    Path root = dir.getRoot();
    int names = dir.getNameCount();
    for (int i = names; i >= 0; i--) {
      Path existing = i == 0 ? root : root.resolve(dir.subpath(0, i));
      Path real;
      try {
        real = existing.toRealPath();
      } catch (AccessDeniedException e) {
        // Not ours to look into: the action itself then says so.
        return dir.normalize();
      } catch (IOException e) {
        continue;
      }
      if (i == names) {
        return real;
      }
      return creating ? real.resolve(dir.subpath(i, names)).normalize() : null;
    }
    return creating ? dir.normalize() : null;
  }

  private static Path given(String text, String parameter) throws ActionException {
    if (text == null || text.isBlank()) {
      throw ActionException.invalid(parameter + " is required.");
    }
    Path path;
    try {
      path = Path.of(text);
    } catch (InvalidPathException e) {
      throw ActionException.invalid(parameter + " '" + text + "' is not a valid path here.");
    }
    if (!path.isAbsolute()) {
      throw ActionException.invalid(
          parameter + " must be an absolute path on the device, got '" + text + "'.");
    }
    return path;
  }

  /** The agent-facing error of a failed file operation on {@code path}. */
  static ActionException failure(Path path, IOException e) {
    if (e instanceof NoSuchFileException) {
      return new ActionException(Codes.NOT_FOUND, "No such file or directory: " + path);
    }
    if (e instanceof AccessDeniedException) {
      return new ActionException(Codes.PERMISSION_DENIED, "Permission denied: " + path);
    }
    String reason =
        e instanceof FileSystemException fs && fs.getReason() != null
            ? fs.getReason()
            : e.getClass().getSimpleName();
    return new ActionException(Codes.INTERNAL, "Cannot access " + path + ": " + reason);
  }
}
