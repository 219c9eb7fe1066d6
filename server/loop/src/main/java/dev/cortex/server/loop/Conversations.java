package dev.cortex.server.loop;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;

/**
 * The conversations of {@code api} sessions on disk: one owner-only JSON file each under {@code
 * data/conversations/}, named by the id a session keeps as its backend's conversation id. A file is
 * replaced whole (written beside, then moved), so a crash leaves the last complete version.
 */
final class Conversations {
  private static final Pattern ID = Pattern.compile("api-[0-9a-f-]{36}");

  private final Path directory;

  Conversations(Path directory) {
    this.directory = directory;
  }

  /** A new, empty conversation (not stored until it is saved). */
  Conversation create() {
    return new Conversation("api-" + UUID.randomUUID(), List.of(), java.util.Set.of());
  }

  /**
   * The conversation {@code id}, or a new one when there is none by that id (a first turn, or a
   * file that was removed or cannot be read: the loop then says so in the transcript).
   */
  Loaded load(String id) {
    if (id == null) {
      return new Loaded(create(), false);
    }
    if (!ID.matcher(id).matches()) {
      return new Loaded(create(), true);
    }
    Path file = directory.resolve(id + ".json");
    if (!Files.isRegularFile(file)) {
      return new Loaded(create(), true);
    }
    try {
      return new Loaded(
          Conversation.fromJson(Json.mapper().readTree(Files.readString(file))), false);
    } catch (IOException | JacksonException | IllegalArgumentException e) {
      return new Loaded(create(), true);
    }
  }

  /** A loaded conversation; {@code lost} when an earlier one was asked for and is gone. */
  record Loaded(Conversation conversation, boolean lost) {}

  void save(Conversation conversation) {
    CortexHome.writeAtomically(
        directory.resolve(conversation.id() + ".json"), Json.write(conversation.toJson()));
  }
}
