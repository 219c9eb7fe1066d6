package dev.cortex.mcp.tool;

import dev.cortex.base.CortexHome;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * Keeps large tool output out of the conversation: text over a tool's limit is written under {@code
 * $CORTEX_HOME/tmp/tool-results/} and replaced by its path and a 2 KB preview.
 */
public final class Spill {
  /** Bytes of UTF-8 kept as the preview of spilled text. */
  public static final int PREVIEW_BYTES = 2048;

  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  private final Path directory;
  private final Clock clock;

  public Spill(CortexHome home, Clock clock) {
    this.directory = Objects.requireNonNull(home, "home").toolResultsDir();
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Returns the text as it is when it fits {@code limit} characters, else writes it to a file and
   * returns the path and a preview.
   */
  public SpillableText fit(String toolName, String text, int limit) {
    if (limit <= 0 || text.length() <= limit) {
      return new SpillableText(text, false, null, text.length());
    }
    return save(toolName, text, ".txt");
  }

  /** Writes {@code text} to a new file (named for the tool, ending in {@code extension}). */
  SpillableText save(String toolName, String text, String extension) {
    String name =
        toolName
            + "-"
            + STAMP.format(clock.instant())
            + "-"
            + UUID.randomUUID().toString().substring(0, 8)
            + extension;
    Path file = directory.resolve(name);
    CortexHome.writeAtomically(file, text);
    return new SpillableText(preview(text), true, file.toAbsolutePath().toString(), text.length());
  }

  /** The longest prefix of {@code text} whose UTF-8 encoding fits {@link #PREVIEW_BYTES}. */
  public static String preview(String text) {
    int bytes = 0;
    int end = 0;
    while (end < text.length()) {
      int cp = text.codePointAt(end);
      int size = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      if (bytes + size > PREVIEW_BYTES) {
        break;
      }
      bytes += size;
      end += Character.charCount(cp);
    }
    return text.substring(0, end);
  }

  /**
   * Text that may have been spilled to disk.
   *
   * @param text the whole text, or its preview when {@code truncated}
   * @param truncated whether the text was spilled
   * @param savedTo the absolute path of the full text when spilled, else null
   * @param totalChars the length of the full text in characters
   */
  public record SpillableText(String text, boolean truncated, String savedTo, long totalChars) {

    /** The output schema of a {@link SpillableText} value, to embed in a tool's schema. */
    public static Map<String, Object> schema(String description) {
      return Schema.object()
          .description(description)
          .required("text", Schema.string("The text, or its first 2 KB when truncated."))
          .required("truncated", Schema.bool("True when the full text was saved to a file."))
          .required(
              "saved_to", Schema.nullable(Schema.string("Path of the full text, when truncated.")))
          .required("total_chars", Schema.integer("Length of the full text in characters."))
          .build();
    }
  }
}
