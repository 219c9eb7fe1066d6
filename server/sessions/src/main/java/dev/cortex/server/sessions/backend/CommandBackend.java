package dev.cortex.server.sessions.backend;

import dev.cortex.process.Capture;
import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code command} backend: each turn runs the session's program, which speaks the JSON-lines
 * protocol of {@code docs/command-backend.md}, version {@link #PROTOCOL}: a {@code turn} line (and,
 * for a program that said it acknowledges messages, {@code inject} lines) in; {@code hello}, {@code
 * ack}, {@code session}, {@code text}, {@code tool_use}, {@code tool_result}, {@code cost} and
 * {@code end} lines out ({@link CommandStream}).
 */
public final class CommandBackend implements Backend {
  public static final String NAME = "command";

  /**
   * The version of the protocol the server speaks, named in every {@code turn} line: 1 had no
   * {@code hello}, no {@code ack} and no message ids; 2 has them, and a program of protocol 1
   * (which never says {@code hello}) is still served as before, but for injected messages.
   */
  public static final int PROTOCOL = 2;

  /** Standard error kept of one turn, for the failure message and the log. */
  static final int STDERR_BYTES = 64 * 1024;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public RunningTurn start(TurnRequest request, TurnEvents events) throws BackendException {
    if (request.program() == null || request.program().isEmpty()) {
      throw new BackendException("The session has no program for the command backend.");
    }
    CommandStream stream = new CommandStream(request.sessionId());
    ProcessTurn running;
    try {
      running =
          ProcessTurn.start(
              ProcessSpec.builder(request.program(), request.environment())
                  .directory(request.workingDirectory())
                  .stdinOpen()
                  .capture(0, STDERR_BYTES)
                  .readOutputToEnd(ProcessTurn.OUTPUT_DRAIN)
                  .build(),
              events,
              CommandBackend::injectLine,
              (line, turn) -> forward(stream.accept(line), turn),
              CommandBackend::tail);
    } catch (IOException e) {
      throw new BackendException(
          "The backend program "
              + request.program().get(0)
              + " could not be started: "
              + e.getMessage());
    }
    running.write(turnLine(request));
    return running;
  }

  private static void forward(List<BackendEvent> events, ProcessTurn turn) {
    for (BackendEvent event : events) {
      if (event instanceof BackendEvent.End end) {
        turn.end(end);
      } else {
        turn.event(event);
      }
    }
  }

  /** The first line of a turn. */
  static String turnLine(TurnRequest request) {
    Map<String, Object> first = new LinkedHashMap<>();
    first.put("type", "turn");
    first.put("protocol", PROTOCOL);
    first.put("session_id", request.sessionId());
    first.put("prompt", request.prompt());
    List<Map<String, String>> messages = new ArrayList<>();
    for (TurnRequest.Message message : request.messages()) {
      Map<String, String> item = new LinkedHashMap<>();
      item.put("id", message.id());
      item.put("text", message.text());
      messages.add(item);
    }
    first.put("messages", messages);
    first.put("resume", request.resume());
    first.put("model", request.model());
    first.put("mcp_config", request.mcpConfig().toString());
    List<Map<String, Object>> plugins = new ArrayList<>();
    for (TurnRequest.PluginMcp server : request.plugins().servers()) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("key", server.key());
      item.put("plugin", server.plugin());
      item.put("name", server.name());
      item.put("type", server.type());
      if (server.proxy() == null && server.stdio()) {
        item.put("command", server.command());
        item.put("args", server.args());
        item.put("env", server.env());
        item.put("cwd", server.cwd());
      } else if (server.proxy() == null) {
        item.put("url", server.url());
        item.put("headers", server.headers());
      } else {
        // The proxy holds the server's values, refuses redirects and keeps it to the tools
        // confirmed: a program is given only the proxy to start.
        item.put(
            "proxy",
            Map.of(
                "command",
                server.proxy().get(0),
                "args",
                server.proxy().subList(1, server.proxy().size())));
      }
      plugins.add(item);
    }
    first.put("plugin_servers", plugins);
    List<Map<String, Object>> skills = new ArrayList<>();
    for (TurnRequest.PluginSkill skill : request.plugins().skills()) {
      Map<String, Object> item = new LinkedHashMap<>();
      item.put("plugin", skill.plugin());
      item.put("name", skill.name());
      item.put("description", skill.description());
      item.put("path", skill.file().toString());
      skills.add(item);
    }
    first.put("plugin_skills", skills);
    return BackendJson.MAPPER.writeValueAsString(first);
  }

  /** The last lines of a program's standard error, for a failure message. */
  static String tail(ProcessResult result) {
    Capture err = result.stderr();
    String text = err.text(StandardCharsets.UTF_8).strip();
    String[] lines = text.split("\n");
    StringBuilder out = new StringBuilder();
    for (int i = Math.max(0, lines.length - 3); i < lines.length; i++) {
      out.append(out.length() > 0 ? " | " : "").append(lines[i].strip());
    }
    return out.length() > 500 ? out.substring(out.length() - 500) : out.toString();
  }

  static String injectLine(String id, String text) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("type", "inject");
    line.put("id", id);
    line.put("text", text);
    return BackendJson.MAPPER.writeValueAsString(line);
  }
}
