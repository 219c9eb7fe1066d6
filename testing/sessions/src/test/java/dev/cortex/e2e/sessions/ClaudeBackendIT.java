package dev.cortex.e2e.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.SessionApi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The {@code claude} backend through the agent server, with a stand-in {@code claude}
 * (CORTEX_CLAUDE_BIN) that records its command line and environment and prints recorded
 * stream-json: a server running as root, the sandbox setting, the built-in tools taken away, and
 * the events Claude Code prints that carry nothing for the chat.
 */
class ClaudeBackendIT {
  /** One turn of Claude Code as it prints it today, with events of the kinds that say nothing. */
  private static final String TRANSCRIPT =
      """
      {"type":"system","subtype":"init","session_id":"c0ffee00-0000-4000-8000-000000000001","model":"claude-sonnet-4-5","apiKeySource":"none","tools":[],"mcp_servers":[]}
      {"type":"system","subtype":"hook_response","hook_name":"SessionStart","stdout":"","stderr":""}
      {"type":"command_lifecycle","command_uuid":"u1","state":"started"}
      {"type":"rate_limit_event","rate_limit_info":{"status":"allowed","rateLimitType":"five_hour"}}
      {"type":"holographic_event","x":1}
      {"type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"Done."}]}}
      {"type":"command_lifecycle","command_uuid":"u1","state":"completed"}
      {"type":"result","subtype":"success","is_error":false,"result":"Done.","usage":{"input_tokens":1,"output_tokens":1},"total_cost_usd":0.0001}
      """;

  @TempDir Path home;
  @TempDir Path work;

  /** Regression: as root, every turn failed on Claude Code's own refusal of bypassed prompts. */
  @Test
  void sessionsNew_serverRunningAsRootWithoutTheSandboxSetting_isRefusedSayingWhatToDo()
      throws Exception {
    Assumptions.assumeTrue(asRoot(), "the server runs as root only where the tests do");
    try (AgentServer server = new AgentServer(home, Map.of()).start()) {
      CliRun run =
          CliRun.run(
              server, "", "sessions", "new", "--backend", "claude", "--cwd", work.toString());

      assertThat(run.exitCode()).isEqualTo(1);
      assertThat(run.stderr())
          .contains("cortex: INVALID_ARGUMENT: The agent server runs as root")
          .contains("CORTEX_CLAUDE_SANDBOX=1");
      assertThat(CliRun.run(server, "", "sessions", "list").stdout()).doesNotContain("claude");
    }
  }

  @Test
  void turn_onASandbox_passesIsSandboxTakesAwayTheReplacedToolsAndKeepsQuietEventsOutOfTheChat()
      throws Exception {
    Path standIn = standIn();
    Map<String, String> env = new LinkedHashMap<>();
    env.put("CORTEX_CLAUDE_SANDBOX", "1");
    env.put("CORTEX_CLAUDE_BIN", standIn.toString());
    try (AgentServer server = new AgentServer(home, env).start();
        SessionApi api = new SessionApi(server)) {
      SessionApi.Answer created =
          api.call("create", Map.of("backend", "claude", "working_dir", work.toString()));
      assertThat(created.status()).as("%s", created.lines()).isEqualTo(200);
      String session = created.result().path("id").asString();

      api.send(session, "Do it");
      api.awaitEntry(session, SessionApi.said("Done."), "the answer");
      api.awaitIdle(session);

      List<String> args = Files.readAllLines(work.resolve("claude-args"));
      // A person's session serves core's agent and the interaction group, whose tools replace
      // Claude Code's own delegation, question and plan tools.
      assertThat(args)
          .contains("--dangerously-skip-permissions")
          .containsSubsequence(
              "--disallowedTools", "Agent,Task,AskUserQuestion,EnterPlanMode,ExitPlanMode");
      assertThat(Files.readAllLines(work.resolve("claude-env"))).contains("IS_SANDBOX=1");
      List<JsonNode> transcript = api.transcript(session);
      assertThat(transcript.toString())
          .doesNotContain("command_lifecycle")
          .doesNotContain("rate_limit_event")
          .doesNotContain("holographic_event")
          .doesNotContain("hook_response");
      assertThat(server.stderr.toString())
          .contains("Claude Code printed an event of unknown type 'holographic_event'");
    }
  }

  /** A claude that records how it was started, prints the transcript and reads its input out. */
  private Path standIn() throws IOException {
    Files.writeString(work.resolve("transcript.jsonl"), TRANSCRIPT);
    Path script = work.resolve("claude");
    Files.writeString(
        script,
        "#!/bin/sh\n"
            + "printf '%s\\n' \"$@\" > '"
            + work.resolve("claude-args")
            + "'\n"
            + "env > '"
            + work.resolve("claude-env")
            + "'\n"
            + "IFS= read -r prompt\n"
            + "cat '"
            + work.resolve("transcript.jsonl")
            + "'\n"
            + "cat > /dev/null\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }

  private static boolean asRoot() {
    try {
      return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
    } catch (IOException | UnsupportedOperationException e) {
      return "root".equals(System.getProperty("user.name"));
    }
  }
}
