package dev.cortex.device;

import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** File paths as agents give them: absolute, and file-system errors as agents can act on them. */
final class Paths {
  private Paths() {}

  /** The absolute path {@code text} names, normalised. */
  static Path absolute(String text, String parameter) throws ActionException {
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
    return path.normalize();
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
