package dev.cortex.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A test agent for the {@code command} backend (protocol: {@code docs/command-backend.md}) that
 * really connects to its session's MCP servers: it reads the {@code turn} line, starts the servers
 * of the MCP configuration file named by {@code mcp_config} with the MCP Java SDK client (each when
 * a call first needs it), and follows the script its prompt carries. Run it with {@link
 * #command()}.
 *
 * <p>A prompt that is not a JSON object is said back: a {@code session} line, a {@code text} line
 * with the prompt, a {@code cost} line and an {@code end} line completed with the prompt. A prompt
 * that is a JSON object is a script; every key is optional and the steps run in this order:
 *
 * <table>
 *   <caption>The script's keys</caption>
 *   <tr><th>key</th><th>value</th><th>step</th></tr>
 *   <tr><td>{@code session}</td><td>string</td><td>the {@code session} line's id (default: the
 *       turn's {@code resume}, else {@code scripted-SESSION_ID}); the line is always printed
 *       first</td></tr>
 *   <tr><td>{@code malformed}</td><td>boolean</td><td>print a line that is not JSON</td></tr>
 *   <tr><td>{@code say}</td><td>string or array of strings</td><td>a {@code text} line for
 *       each</td></tr>
 *   <tr><td>{@code list_tools}</td><td>boolean</td><td>start every configured server and say, for
 *       each, {@code {"server":KEY,"tools":[NAMES]}} as JSON text</td></tr>
 *   <tr><td>{@code calls}</td><td>array of {@code {"server": KEY, "tool": NAME, "arguments":
 *       {...}}} ({@code server} may be left out when the file has one server)</td><td>for each, in
 *       order: a {@code tool_use} line (id {@code call-N}, name {@code mcp__KEY__NAME}, the
 *       arguments as input), the call, then a {@code tool_result} line with the result's text
 *       ({@code is_error} as the server said; a server that cannot start, or a protocol error, is
 *       a result with {@code is_error} true and the reason)</td></tr>
 *   <tr><td>{@code sleep_ms}</td><td>whole number</td><td>wait that long (a long turn to stop;
 *       the end of standard input cuts it short and ends the agent)</td></tr>
 *   <tr><td>{@code await_inject}</td><td>whole number</td><td>wait until that many {@code inject}
 *       lines have arrived in all; after {@code await_timeout_ms} (default 120000) the turn ends
 *       failed</td></tr>
 *   <tr><td>{@code echo_injected}</td><td>boolean</td><td>a {@code text} line {@code injected:
 *       TEXT} for each message injected so far</td></tr>
 *   <tr><td>{@code exit_without_end}</td><td>boolean</td><td>exit with code 3 here, after a line
 *       on standard error, printing no cost and no end (a crash)</td></tr>
 *   <tr><td>{@code cost}</td><td>object with {@code model}, {@code input_tokens}, {@code
 *       output_tokens}, {@code cache_read_tokens}, {@code cache_write_tokens}, {@code usd} (null:
 *       priced by the server), {@code mode}; or {@code false}</td><td>the {@code cost} line
 *       (default: the turn's model or {@code scripted}, no tokens, 0 USD, {@code api}); {@code
 *       false} prints none</td></tr>
 *   <tr><td>{@code fail}</td><td>string</td><td>end {@code failed} with this error; otherwise the
 *       end is {@code completed} with the last text said</td></tr>
 * </table>
 *
 * <p>For example {@code {"say": "checking", "calls": [{"server": "cortex-core", "tool":
 * "current_time", "arguments": {"timezone": "UTC"}}], "await_inject": 1, "echo_injected": true}}
 * says {@code checking}, calls {@code current_time}, waits for a message and says it back. A script
 * with an unknown key or a value of the wrong kind ends the turn failed, naming it.
 */
public final class ScriptedAgent {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  /** An MCP call's deadline without {@code MCP_TOOL_TIMEOUT}: the seed's 30 min 30 s. */
  private static final Duration CALL_TIMEOUT = Duration.ofMillis(1_830_000);

  /** The exit code of {@code exit_without_end}. */
  static final int CRASH_EXIT_CODE = 3;

  private ScriptedAgent() {}

  public static void main(String[] args) {
    System.exit(run(System.in, System.out, System.err, System.getenv()));
  }

  /** The command line that runs the agent on this JVM, with this JVM's class path. */
  public static List<String> command() {
    return List.of(
        CortexProcess.java(),
        "-XX:+UseSerialGC",
        "-XX:TieredStopAtLevel=1",
        "-cp",
        System.getProperty("java.class.path"),
        ScriptedAgent.class.getName());
  }

  /**
   * Plays one turn: 0 once the end line is printed (or the input ended first), 2 without a turn
   * line, 3 for {@code exit_without_end}.
   */
  static int run(
      InputStream stdin, PrintStream stdout, PrintStream stderr, Map<String, String> env) {
    BufferedReader in = new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8));
    Out out = new Out(stdout);
    JsonNode turn;
    try {
      String first = in.readLine();
      turn = first == null ? null : JSON.readTree(first);
    } catch (IOException | RuntimeException e) {
      turn = null;
    }
    if (turn == null || !turn.path("type").asString("").equals("turn")) {
      stderr.println("scripted agent: the first line is not a turn line");
      out.end(null, "the first line was not a turn line");
      return 2;
    }
    Inbox inbox = Inbox.reading(in);
    String mcpConfig = turn.path("mcp_config").asString(null);
    try (McpServers servers =
        McpServers.read(mcpConfig == null ? null : Path.of(mcpConfig), callTimeout(env))) {
      return new Play(turn, out, stderr, inbox, servers).run();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    }
  }

  private static Duration callTimeout(Map<String, String> env) {
    try {
      return Duration.ofMillis(Long.parseLong(env.getOrDefault("MCP_TOOL_TIMEOUT", "").strip()));
    } catch (NumberFormatException e) {
      return CALL_TIMEOUT;
    }
  }

  /** One turn's steps. */
  private static final class Play {
    private final JsonNode turn;
    private final Out out;
    private final PrintStream stderr;
    private final Inbox inbox;
    private final McpServers servers;
    private String lastSaid = "";

    Play(JsonNode turn, Out out, PrintStream stderr, Inbox inbox, McpServers servers) {
      this.turn = turn;
      this.out = out;
      this.stderr = stderr;
      this.inbox = inbox;
      this.servers = servers;
    }

    int run() throws InterruptedException {
      Script script;
      String sessionId = turn.path("session_id").asString("");
      String resume = turn.path("resume").asString(null);
      try {
        script = Script.parse(turn.path("prompt").asString(""), turn.path("model").asString(null));
      } catch (Script.BadScript e) {
        out.session(resume != null ? resume : "scripted-" + sessionId);
        out.end(null, "the script cannot be followed: " + e.getMessage());
        return 0;
      }
      out.session(
          script.session() != null
              ? script.session()
              : resume != null ? resume : "scripted-" + sessionId);
      if (script.malformed()) {
        out.raw("this line is not JSON: the script asked for a malformed line");
      }
      script.say().forEach(this::say);
      if (script.listTools() && !listTools()) {
        return 0;
      }
      for (int i = 0; i < script.calls().size(); i++) {
        call("call-" + (i + 1), script.calls().get(i));
      }
      if (script.sleepMs() > 0) {
        inbox.sleep(script.sleepMs());
      }
      if (script.awaitInject() > 0
          && !inbox.awaitInjected(script.awaitInject(), script.awaitTimeoutMs())
          && !inbox.closed()) {
        out.end(
            null,
            "the script awaited "
                + script.awaitInject()
                + " injected messages; "
                + inbox.injected().size()
                + " arrived within "
                + script.awaitTimeoutMs()
                + " ms");
        return 0;
      }
      if (inbox.closed()) {
        return 0;
      }
      if (script.echoInjected()) {
        inbox.injected().forEach(text -> say("injected: " + text));
      }
      if (script.exitWithoutEnd()) {
        stderr.println("scripted agent: exiting without an end line, as the script says");
        stderr.flush();
        return CRASH_EXIT_CODE;
      }
      if (script.cost() != null) {
        out.cost(script.cost());
      }
      out.end(script.fail() == null ? lastSaid : null, script.fail());
      return 0;
    }

    private void say(String text) {
      out.text(text);
      lastSaid = text;
    }

    private boolean listTools() {
      try {
        for (String name : servers.names()) {
          Map<String, Object> listed = new LinkedHashMap<>();
          listed.put("server", name);
          listed.put("tools", servers.tools(name));
          say(JSON.writeValueAsString(listed));
        }
        return true;
      } catch (McpServers.Unavailable | RuntimeException e) {
        out.end(null, "list_tools failed: " + e.getMessage());
        return false;
      }
    }

    private void call(String id, Script.Call call) {
      String server = call.server();
      boolean announced = false;
      McpServers.Outcome outcome;
      try {
        server = servers.resolve(call.server());
        out.toolUse(id, "mcp__" + server + "__" + call.tool(), call.arguments());
        announced = true;
        outcome = servers.call(server, call.tool(), call.arguments());
      } catch (McpServers.Unavailable e) {
        if (!announced) {
          out.toolUse(
              id,
              "mcp__" + (server == null ? "unknown" : server) + "__" + call.tool(),
              call.arguments());
        }
        outcome = new McpServers.Outcome(e.getMessage(), true);
      }
      out.toolResult(id, outcome.text(), outcome.error());
    }
  }

  /** The protocol's output lines, one JSON object each, flushed as they are written. */
  private static final class Out {
    private final PrintStream stdout;

    Out(PrintStream stdout) {
      this.stdout = stdout;
    }

    void session(String id) {
      emit(Map.of("type", "session", "id", id));
    }

    void text(String text) {
      emit(Map.of("type", "text", "text", text));
    }

    void toolUse(String id, String name, Map<String, Object> input) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("type", "tool_use");
      line.put("id", id);
      line.put("name", name);
      line.put("input", input);
      emit(line);
    }

    void toolResult(String id, String content, boolean error) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("type", "tool_result");
      line.put("tool_use_id", id);
      line.put("content", content);
      line.put("is_error", error);
      emit(line);
    }

    void cost(Script.Cost cost) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("type", "cost");
      line.put("model", cost.model());
      line.put("input_tokens", cost.inputTokens());
      line.put("output_tokens", cost.outputTokens());
      line.put("cache_read_tokens", cost.cacheReadTokens());
      line.put("cache_write_tokens", cost.cacheWriteTokens());
      line.put("usd", cost.usd());
      line.put("mode", cost.mode());
      emit(line);
    }

    /** The end line: completed with {@code result} when {@code error} is null, else failed. */
    void end(String result, String error) {
      Map<String, Object> line = new LinkedHashMap<>();
      line.put("type", "end");
      if (error == null) {
        line.put("status", "completed");
        line.put("result", result);
      } else {
        line.put("status", "failed");
        line.put("error", error);
      }
      emit(line);
    }

    void raw(String line) {
      synchronized (this) {
        stdout.println(line);
        stdout.flush();
      }
    }

    private void emit(Map<String, Object> line) {
      raw(JSON.writeValueAsString(line));
    }
  }
}
