package dev.cortex.cli.sessions;

import dev.cortex.base.Json;
import dev.cortex.protocol.session.Sessions;
import java.io.PrintStream;
import tools.jackson.databind.JsonNode;

/** Transcript entries as a person reads them on a terminal. */
final class Transcripts {
  private static final int PREVIEW = 200;

  private Transcripts() {}

  static void print(PrintStream out, Sessions.Entry entry) {
    JsonNode body = entry.body();
    switch (entry.kind()) {
      case "user" -> out.println("you: " + body.path("text").asString(""));
      case "assistant" -> out.println(body.path("text").asString(""));
      case "tool_use" ->
          out.println(
              "  → " + body.path("name").asString("") + " " + cut(body.path("input").toString()));
      case "tool_result" ->
          out.println(
              "  ← "
                  + cut(firstLine(body.path("content").asString("")))
                  + (body.path("is_error").asBoolean(false) ? "  (error)" : ""));
      case "system" -> out.println("[" + body.path("text").asString("") + "]");
      case "note" -> out.println("[note: " + body.path("text").asString("") + "]");
      case "attachment" -> out.println("  ▣ " + attachment(body));
      default -> out.println(Json.write(entry));
    }
  }

  /** One line on what a tool of the web group delivered: its type and names, never the bytes. */
  static String attachment(JsonNode body) {
    String type = body.path("type").asString("");
    switch (type) {
      case "files" -> {
        java.util.List<String> names = new java.util.ArrayList<>();
        body.path("files").forEach(f -> names.add(f.path("name").asString("")));
        return "files: " + String.join(", ", names);
      }
      case "view" -> {
        return "view: " + body.path("title").asString("");
      }
      case "decisions" -> {
        java.util.List<String> titles = new java.util.ArrayList<>();
        body.path("decisions").forEach(d -> titles.add(d.path("title").asString("")));
        return "decisions: " + String.join("; ", titles);
      }
      case "board" -> {
        return "board: " + body.path("board").path("slug").asString("");
      }
      default -> {
        return "attachment " + body.path("id").asString("");
      }
    }
  }

  private static String firstLine(String text) {
    int newline = text.indexOf('\n');
    return newline < 0 ? text : text.substring(0, newline) + " …";
  }

  private static String cut(String text) {
    return text.length() <= PREVIEW ? text : text.substring(0, PREVIEW) + "…";
  }
}
