package dev.cortex.cli.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each object of a JSON text lies, and its members, so that one member can be set or taken
 * out by an edit of the text alone: every other character (comments, blank lines, the file's own
 * indentation and key order) stays as it was. The text has been checked to be JSON (or JSONC:
 * {@code //} and {@code /* *}{@code /} comments, trailing commas) before it is read here.
 */
final class JsonSpans {
  /**
   * A member of an object.
   *
   * @param keyStart where its key's opening quote is
   * @param valueStart where its value starts
   * @param valueEnd just after its value
   */
  record Member(String key, int keyStart, int valueStart, int valueEnd) {}

  /**
   * An object.
   *
   * @param open where its {@code &#123;} is
   * @param close where its {@code &#125;} is
   */
  record Obj(int open, int close, List<Member> members) {
    /** The last member named {@code key} (the one a JSON reader keeps), or null. */
    Member member(String key) {
      Member found = null;
      for (Member member : members) {
        if (member.key().equals(key)) {
          found = member;
        }
      }
      return found;
    }
  }

  private final String text;
  private final Map<Integer, Obj> objects = new HashMap<>();
  private int pos;

  private JsonSpans(String text) {
    this.text = text;
  }

  /** Reads {@code text}, which must hold one JSON value. */
  static JsonSpans of(String text) {
    JsonSpans spans = new JsonSpans(text);
    spans.skip();
    spans.value();
    return spans;
  }

  /** The object that starts at {@code offset}, or null when no object starts there. */
  Obj objectAt(int offset) {
    return objects.get(offset);
  }

  /** The document's top-level object, or null when it holds another value. */
  Obj root() {
    return objects.get(skipFrom(0));
  }

  String text() {
    return text;
  }

  /**
   * The text with {@code obj}'s member {@code key} set to {@code value} (already rendered for the
   * member's indentation by {@code render}): an existing member's value is replaced where it
   * stands, a new member goes after the last one.
   */
  String set(Obj obj, String key, java.util.function.Function<String, String> render) {
    Member existing = obj.member(key);
    if (existing != null) {
      String indent = indentOf(existing.keyStart());
      return text.substring(0, existing.valueStart())
          + render.apply(indent)
          + text.substring(existing.valueEnd());
    }
    String quoted = McpClientFile.compact(tools.jackson.databind.node.StringNode.valueOf(key));
    if (obj.members().isEmpty()) {
      String outer = indentOf(obj.open());
      String indent = outer + "  ";
      int end = obj.close();
      int start = end;
      while (start > obj.open() + 1 && Character.isWhitespace(text.charAt(start - 1))) {
        start--;
      }
      return text.substring(0, start)
          + "\n"
          + indent
          + quoted
          + ": "
          + render.apply(indent)
          + "\n"
          + outer
          + text.substring(end);
    }
    Member last = obj.members().get(obj.members().size() - 1);
    String indent =
        onOneLine(obj.open(), last.keyStart())
            ? indentOf(obj.open()) + "  "
            : indentOf(last.keyStart());
    int after = afterMember(last);
    String member = "\n" + indent + quoted + ": " + render.apply(indent);
    if (hasComma(last)) {
      // A file that ends its members with a comma gets one after the new member too.
      return text.substring(0, after) + member + "," + text.substring(after);
    }
    return text.substring(0, last.valueEnd())
        + ","
        + text.substring(last.valueEnd(), after)
        + member
        + text.substring(after);
  }

  /**
   * The text without {@code obj}'s member {@code key} (its line, with the comment that ends it),
   * and without the comma before it when it was the last member.
   */
  String remove(Obj obj, String key) {
    Member member = obj.member(key);
    int index = obj.members().indexOf(member);
    int start = member.keyStart();
    int lineStart = text.lastIndexOf('\n', start - 1) + 1;
    if (text.substring(lineStart, start).isBlank()) {
      start = lineStart;
    }
    int end = afterMember(member);
    boolean wholeLines = start == lineStart && end < text.length() && text.charAt(end) == '\n';
    if (wholeLines) {
      end++;
    } else if (start == lineStart && lineStart > 0) {
      // A member on a line of its own but for the closing brace after it: its line break goes.
      start = lineStart - 1;
    }
    boolean last = index == obj.members().size() - 1;
    if (last && !hasComma(member) && index > 0) {
      Member previous = obj.members().get(index - 1);
      if (hasComma(previous)) {
        int comma = commaAt(previous);
        return text.substring(0, comma) + text.substring(comma + 1, start) + text.substring(end);
      }
    }
    if (index == 0
        && last
        && text.substring(obj.open() + 1, start).isBlank()
        && text.substring(end, obj.close()).isBlank()) {
      // The only member, and nothing else between the braces: the object is left empty, {}.
      return text.substring(0, obj.open() + 1) + text.substring(obj.close());
    }
    return text.substring(0, start) + text.substring(end);
  }

  /** Whether a comma follows {@code member}'s value (before the next member or the brace). */
  private boolean hasComma(Member member) {
    return commaAt(member) >= 0;
  }

  private int commaAt(Member member) {
    int at = skipFrom(member.valueEnd());
    return at < text.length() && text.charAt(at) == ',' ? at : -1;
  }

  /**
   * Where a member ends on its line: after its value, its comma and a comment on the same line;
   * before the newline.
   */
  private int afterMember(Member member) {
    int at = member.valueEnd();
    at = spaces(at);
    if (at < text.length() && text.charAt(at) == ',') {
      at = spaces(at + 1);
    }
    if (text.startsWith("//", at)) {
      int newline = text.indexOf('\n', at);
      at = newline < 0 ? text.length() : newline;
    } else if (text.startsWith("/*", at)) {
      int close = text.indexOf("*/", at + 2);
      int newline = text.indexOf('\n', at);
      if (close >= 0 && (newline < 0 || close < newline)) {
        at = spaces(close + 2);
      }
    }
    return at;
  }

  private int spaces(int at) {
    while (at < text.length() && (text.charAt(at) == ' ' || text.charAt(at) == '\t')) {
      at++;
    }
    return at;
  }

  private boolean onOneLine(int from, int to) {
    return text.substring(from, to).indexOf('\n') < 0;
  }

  /** The whitespace that starts the line {@code offset} is on. */
  private String indentOf(int offset) {
    int lineStart = text.lastIndexOf('\n', offset - 1) + 1;
    int end = lineStart;
    while (end < text.length() && (text.charAt(end) == ' ' || text.charAt(end) == '\t')) {
      end++;
    }
    return text.substring(lineStart, end);
  }

  // --- Reading. ---------------------------------------------------------------------------------

  private void value() {
    char c = text.charAt(pos);
    switch (c) {
      case '{' -> object();
      case '[' -> array();
      case '"' -> string();
      default -> {
        while (pos < text.length() && !isEnd(text.charAt(pos))) {
          pos++;
        }
      }
    }
  }

  private static boolean isEnd(char c) {
    return c == ',' || c == ']' || c == '}' || c == '/' || Character.isWhitespace(c);
  }

  private void object() {
    int open = pos++;
    List<Member> members = new ArrayList<>();
    skip();
    while (text.charAt(pos) != '}') {
      int keyStart = pos;
      String key = string();
      skip();
      pos++; // ':'
      skip();
      int valueStart = pos;
      value();
      members.add(new Member(key, keyStart, valueStart, pos));
      skip();
      if (text.charAt(pos) == ',') {
        pos++;
        skip();
      }
    }
    objects.put(open, new Obj(open, pos, List.copyOf(members)));
    pos++;
  }

  private void array() {
    pos++;
    skip();
    while (text.charAt(pos) != ']') {
      value();
      skip();
      if (text.charAt(pos) == ',') {
        pos++;
        skip();
      }
    }
    pos++;
  }

  private String string() {
    int start = pos++;
    while (text.charAt(pos) != '"') {
      pos += text.charAt(pos) == '\\' ? 2 : 1;
    }
    pos++;
    return McpClientFile.decodeString(text.substring(start, pos));
  }

  private void skip() {
    pos = skipFrom(pos);
  }

  /** The first offset from {@code at} that is neither whitespace nor inside a comment. */
  private int skipFrom(int at) {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (Character.isWhitespace(c)) {
        at++;
      } else if (text.startsWith("//", at)) {
        int newline = text.indexOf('\n', at);
        at = newline < 0 ? text.length() : newline + 1;
      } else if (text.startsWith("/*", at)) {
        int close = text.indexOf("*/", at + 2);
        at = close < 0 ? text.length() : close + 2;
      } else {
        break;
      }
    }
    return at;
  }
}
