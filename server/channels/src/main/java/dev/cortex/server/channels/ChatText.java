package dev.cortex.server.channels;

import java.util.ArrayList;
import java.util.List;

/**
 * A reply cut into chat messages of at most a limit each: at a blank line when one is near, else at
 * a line's end, else anywhere; a code block cut in two is closed at the end of one message and
 * opened again at the start of the next, so that each message renders on its own.
 */
public final class ChatText {
  private static final String FENCE = "```";

  private ChatText() {}

  /** The messages of {@code text}, in order; none for blank text. */
  public static List<String> split(String text, int limit) {
    if (limit < 16) {
      throw new IllegalArgumentException("limit is at least 16");
    }
    List<String> parts = new ArrayList<>();
    String rest = text == null ? "" : text.strip();
    boolean reopen = false;
    while (!rest.isEmpty()) {
      String prefix = reopen ? FENCE + "\n" : "";
      if (prefix.length() + rest.length() <= limit) {
        parts.add(prefix + rest);
        break;
      }
      int room = limit - prefix.length() - FENCE.length() - 1;
      int cut = cut(rest, room);
      String head = rest.substring(0, cut).stripTrailing();
      // Only the separator goes: the next line keeps its indentation (code does).
      rest = rest.substring(cut).replaceFirst("^(\\n+| )", "");
      String part = prefix + head;
      boolean open = fences(part) % 2 == 1;
      if (open) {
        part = part + "\n" + FENCE;
      }
      parts.add(part);
      reopen = open;
    }
    return parts;
  }

  /** Where to cut {@code text} to keep at most {@code room} characters. */
  private static int cut(String text, int room) {
    int blank = text.lastIndexOf("\n\n", room);
    if (blank > room / 2) {
      return blank;
    }
    int line = text.lastIndexOf('\n', room);
    if (line > room / 2) {
      return line;
    }
    int space = text.lastIndexOf(' ', room);
    if (space > room / 2) {
      return space;
    }
    int at = room;
    if (Character.isLowSurrogate(text.charAt(at))) {
      at--;
    }
    return at;
  }

  private static int fences(String text) {
    int count = 0;
    for (int i = text.indexOf(FENCE); i >= 0; i = text.indexOf(FENCE, i + FENCE.length())) {
      count++;
    }
    return count;
  }
}
