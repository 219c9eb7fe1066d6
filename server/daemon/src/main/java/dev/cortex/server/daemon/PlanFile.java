package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.protocol.session.Interactions;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * A plan file submitted for approval: relative to the session's working directory (or absolute
 * inside it), a regular file of UTF-8 text of at most {@link Interactions#MAX_PLAN_BYTES}. A file
 * outside the directory, by its path or by a link, is refused before it is read. Messages name the
 * path as the agent gave it, never the directory.
 */
final class PlanFile {
  private PlanFile() {}

  /** The plan's text, and its path relative to the working directory. */
  record Read(String relative, String text) {}

  static Read read(Path workingDirectory, String given) {
    Path base;
    Path file;
    try {
      base = workingDirectory.toRealPath();
      file = base.resolve(given).normalize();
    } catch (IOException | InvalidPathException e) {
      throw notFound(given);
    }
    if (!file.startsWith(base)) {
      throw outside(given);
    }
    if (!Files.isRegularFile(file)) {
      throw notFound(given);
    }
    try {
      Path real = file.toRealPath();
      if (!real.startsWith(base)) {
        throw outside(given);
      }
      if (Files.size(real) > Interactions.MAX_PLAN_BYTES) {
        throw new CodedException(
            Interactions.Codes.PLAN_UNREADABLE,
            "The plan file "
                + given
                + " is larger than "
                + Interactions.MAX_PLAN_BYTES / 1024
                + " KiB; write a shorter plan.");
      }
      byte[] bytes = Files.readAllBytes(real);
      String text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
      return new Read(base.relativize(real).toString(), text);
    } catch (CharacterCodingException e) {
      throw new CodedException(
          Interactions.Codes.PLAN_UNREADABLE, "The plan file " + given + " is not UTF-8 text.");
    } catch (IOException e) {
      throw notFound(given);
    }
  }

  private static CodedException notFound(String given) {
    return new CodedException(
        Interactions.Codes.PLAN_NOT_FOUND,
        "No readable plan file "
            + given
            + " in the session's working directory; write the plan there first (e.g."
            + " plan/PLAN.md).");
  }

  private static CodedException outside(String given) {
    return new CodedException(
        Interactions.Codes.PLAN_OUTSIDE,
        "The plan file "
            + given
            + " is outside the session's working directory; plans are files inside it (e.g."
            + " plan/PLAN.md).");
  }
}
