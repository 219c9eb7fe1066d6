package dev.cortex.protocol.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonSubTypes;
import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.cortex.protocol.WireJson;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * An event line of a followed {@link Sessions#SEND}, before its {@link Sessions.TurnEnd}: one JSON
 * object tagged by {@code event}, whose other field is named as the tag, e.g. {@code {"event":
 * "entry", "entry": {...}}}. A reader skips events of a tag it does not know.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, include = JsonTypeInfo.As.PROPERTY, property = "event")
@JsonSubTypes({
  @JsonSubTypes.Type(SessionEvent.Delivered.class),
  @JsonSubTypes.Type(SessionEvent.Recorded.class),
  @JsonSubTypes.Type(SessionEvent.Progressed.class)
})
public sealed interface SessionEvent {
  /**
   * The event of a line, or null when the line is no event this protocol knows (a later server's)
   * or cannot be read as one.
   */
  static SessionEvent read(JsonNode line) {
    if (line == null || !line.isObject() || !line.path("event").isString()) {
      return null;
    }
    try {
      return WireJson.mapper().treeToValue(line, SessionEvent.class);
    } catch (JacksonException | IllegalArgumentException | NullPointerException e) {
      return null;
    }
  }

  /** What became of the message: always the first event. */
  @JsonTypeName("delivery")
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record Delivered(Sessions.Delivery delivery) implements SessionEvent {
    public Delivered {
      Objects.requireNonNull(delivery, "delivery");
    }
  }

  /** A transcript entry of the turn that took the message, as it was recorded. */
  @JsonTypeName("entry")
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record Recorded(Sessions.Entry entry) implements SessionEvent {
    public Recorded {
      Objects.requireNonNull(entry, "entry");
    }
  }

  /** Nothing came for a while: the turn still runs, or the message still waits for it. */
  @JsonTypeName("progress")
  @JsonInclude(JsonInclude.Include.ALWAYS)
  record Progressed(Sessions.Progress progress) implements SessionEvent {
    public Progressed {
      Objects.requireNonNull(progress, "progress");
    }
  }
}
