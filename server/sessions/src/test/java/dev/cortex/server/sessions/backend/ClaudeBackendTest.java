package dev.cortex.server.sessions.backend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.CortexHome;
import dev.cortex.server.sessions.backend.BackendEvent.Acked;
import dev.cortex.server.sessions.backend.BackendEvent.Cost;
import dev.cortex.server.sessions.backend.BackendEvent.End;
import dev.cortex.server.sessions.backend.BackendEvent.Handshake;
import dev.cortex.server.sessions.backend.BackendEvent.Note;
import dev.cortex.server.sessions.backend.BackendEvent.Started;
import dev.cortex.server.sessions.backend.BackendEvent.Text;
import dev.cortex.server.sessions.backend.BackendEvent.ToolResult;
import dev.cortex.server.sessions.backend.BackendEvent.ToolUse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code claude} backend replaying recorded stream-json transcripts through a stand-in {@code
 * claude} (test resource {@code claude/fake-claude}), which checks the flags and environment of the
 * spawn, records what it reads on standard input and prints the transcript: no network, no key.
 */
class ClaudeBackendTest {
  private static final String RESOURCES = "/dev/cortex/server/sessions/backend/claude/";
  private static final String SESSION = "8f0c5a52-3c1e-4b8e-9a55-1f0d2c7e6a11";
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path dir;
  Path home;
  Path bin;
  Path standIn;
  ClaudeBackend backend;

  @BeforeEach
  void install() throws IOException {
    home = Files.createDirectories(dir.resolve("home"));
    bin = Files.createDirectories(dir.resolve("bin"));
    standIn = bin.resolve("claude");
    try (InputStream in = ClaudeBackendTest.class.getResourceAsStream(RESOURCES + "fake-claude")) {
      Files.copy(in, standIn);
    }
    Files.setPosixFilePermissions(standIn, PosixFilePermissions.fromString("rwxr-xr-x"));
    for (String name :
        List.of(
            "plain-answer",
            "mcp-tools",
            "error-result",
            "garbage",
            "cut-off",
            "inject",
            "inject-queued",
            "echo-missing",
            "hang")) {
      try (InputStream in =
          ClaudeBackendTest.class.getResourceAsStream(
              RESOURCES + "transcripts/" + name + ".jsonl")) {
        Files.copy(in, dir.resolve(name + ".jsonl"));
      }
    }
    backend =
        new ClaudeBackend(new CortexHome(home, home.resolve("data")), ClaudeBackend.ECHO_GRACE);
  }

  @Test
  void start_plainAnswer_startsSaysCostsAndCompletes() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn =
        backend.start(request("plain-answer", "What is the capital of France?"), events);

    assertThat(TurnRecorder.end(turn))
        .isEqualTo(End.completed("Hello! Paris is the capital of France."));
    assertThat(events.events())
        .containsExactly(
            new Started(SESSION),
            new Text("Hello! Paris is the capital of France."),
            new Cost("claude-sonnet-4-5-20250929", 3, 12, 12000, 2048, 0.01234, "plan"),
            End.completed("Hello! Paris is the capital of France."));
    List<JsonNode> written = stdin();
    assertThat(written).hasSize(1);
    JsonNode prompt = written.get(0);
    assertThat(prompt.path("type").asString()).isEqualTo("user");
    assertThat(prompt.path("message").path("role").asString()).isEqualTo("user");
    assertThat(prompt.path("message").path("content").asString())
        .isEqualTo("What is the capital of France?");
    assertThat(prompt.path("uuid").asString()).hasSize(36);
    assertThat(prompt.has("priority")).isFalse();
  }

  @Test
  void start_mcpToolUse_givesToolUsesAndFlattenedResults() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = backend.start(request("mcp-tools", "What time is it on box1?"), events);

    assertThat(TurnRecorder.end(turn))
        .isEqualTo(End.completed("It is 12:00 UTC; box1 is offline."));
    assertThat(events.events())
        .containsExactly(
            new Started(SESSION),
            new Text("Let me check the time and the box."),
            new ToolUse(
                "toolu_01TimeCall", "mcp__cortex-core__current_time", "{\"timezone\":\"UTC\"}"),
            new ToolResult(
                "toolu_01TimeCall",
                "{\"unix\":1796126400,\"utc\":\"2026-12-01T12:00:00Z\","
                    + "\"local\":\"2026-12-01T12:00:00Z\",\"timezone\":\"UTC\"}",
                false),
            new ToolUse(
                "toolu_01BashCall",
                "mcp__cortex-core__remote_bash",
                "{\"device\":\"box1\",\"command\":\"uptime\",\"timeout\":30}"),
            new ToolResult(
                "toolu_01BashCall", "Device 'box1' is not connected. Online devices: none.", true),
            new Text("It is 12:00 UTC; box1 is offline."),
            new Cost("claude-opus-4-1-20250805", 20, 65, 27300, 420, 0.18765, "api"),
            End.completed("It is 12:00 UTC; box1 is offline."));
  }

  @Test
  void start_errorResult_endsFailedWithTheSubtypeAndErrors() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn =
        backend.start(
            request("error-result", "continue", "0badc0de-1111-4222-8333-444455556666", null),
            events);

    End expected =
        End.failed(
            "Claude Code ended the turn with error_during_execution: No conversation found with"
                + " session ID: 0badc0de-1111-4222-8333-444455556666");
    assertThat(TurnRecorder.end(turn)).isEqualTo(expected);
    assertThat(events.events())
        .containsExactly(
            new Started(SESSION),
            new Cost("claude-sonnet-4-5-20250929", 0, 0, 0, 0, 0.0, "api"),
            expected);
  }

  @Test
  void start_garbageBetweenEvents_becomesNotesAndTheTurnGoesOn_unknownTypesNotInTheChat()
      throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = backend.start(request("garbage", "still there?"), events);

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("Still here."));
    assertThat(events.events())
        .containsExactly(
            new Started(SESSION),
            new Note(
                "Claude Code printed a line that is not JSON: Warning: this is not JSON at all"),
            new Note("Claude Code printed a line that is not a JSON object: [1,2,3]"),
            new Note("Claude Code: compact_boundary"),
            new Text("Still here."),
            new Note(
                "Claude Code printed a line that is not JSON: "
                    + "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\""),
            new Cost("claude-sonnet-4-5-20250929", 5, 3, 100, 0, 0.0009, "api"),
            End.completed("Still here."));
  }

  @Test
  void start_transcriptCutOffWithoutResult_endsFailedWithTheStderrTail() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = backend.start(request("cut-off", "go"), events);

    End expected =
        End.failed(
            "the backend exited with code 1 before the turn ended:"
                + " Error: API request failed: read ECONNRESET");
    assertThat(TurnRecorder.end(turn)).isEqualTo(expected);
    assertThat(events.events())
        .containsExactly(
            new Started(SESSION),
            new Text("Working on it."),
            new Note(
                "Claude Code printed a line that is not JSON: "
                    + "{\"type\":\"assistant\",\"message\":{\"id\":\"msg_01CutOff\","
                    + "\"content\":[{\"type\":\"te"),
            expected);
  }

  @Test
  void inject_duringTheQuery_isWrittenAsAUserMessageAndTakenIn() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = backend.start(request("inject", "How many files are there?"), events);
    events.awaitText("Counting the files.");

    assertThat(turn.inject("2", "Also say goodbye.")).isTrue();

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("There are 3 files. And goodbye!"));
    assertThat(events.events())
        .containsExactly(
            new Started(SESSION),
            new Text("Counting the files."),
            new Text("There are 3 files. And goodbye!"),
            new Cost("claude-sonnet-4-5-20250929", 14, 13, 300, 0, 0.0042, "api"),
            End.completed("There are 3 files. And goodbye!"));
    assertThat(events.acks())
        .as("each echo acknowledges its message")
        .containsExactly(new Handshake(true), new Acked("1"), new Acked("2"));
    List<JsonNode> written = stdin();
    assertThat(written).hasSize(2);
    JsonNode injected = written.get(1);
    assertThat(injected.path("type").asString()).isEqualTo("user");
    assertThat(injected.path("message").path("content").asString()).isEqualTo("Also say goodbye.");
    assertThat(injected.path("priority").asString()).isEqualTo("next");
    assertThat(injected.path("session_id").asString()).isEqualTo(SESSION);
    assertThat(injected.path("uuid").asString())
        .hasSize(36)
        .isNotEqualTo(written.get(0).path("uuid").asString());
  }

  @Test
  void inject_tooLateForTheQuery_turnRunsOnToTheResultOfItsOwnQuery() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = backend.start(request("inject-queued", "First question"), events);
    events.awaitText("First answer.");

    assertThat(turn.inject("2", "Second question")).isTrue();

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("Second answer."));
    assertThat(events.events())
        .containsExactly(
            new Started(SESSION),
            new Text("First answer."),
            new Text("Second answer."),
            new Cost("claude-sonnet-4-5-20250929", 12, 7, 250, 10, 0.0025, "api"),
            End.completed("Second answer."));
    assertThat(events.acks()).containsExactly(new Handshake(true), new Acked("1"), new Acked("2"));
    assertThat(stdin()).hasSize(2);
  }

  /**
   * A result that came while an injected message was not echoed used to be held back for as long as
   * Claude Code ran: one that never echoed kept the turn until max_turn. After a short grace its
   * input is closed, and its exit ends the turn with that result; the message is not acknowledged
   * (it goes back to the queue).
   */
  @Test
  void inject_neverEchoed_theHeldResultEndsTheTurnAfterTheGrace() throws Exception {
    ClaudeBackend quick =
        new ClaudeBackend(new CortexHome(home, home.resolve("data")), Duration.ofMillis(200));
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = quick.start(request("echo-missing", "Do it"), events);
    events.awaitText("Working on it.");

    assertThat(turn.inject("2", "One more thing")).isTrue();

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("Done."));
    assertThat(events.events())
        .containsExactly(
            new Started(SESSION),
            new Text("Working on it."),
            new Cost("claude-sonnet-4-5-20250929", 5, 4, 100, 0, 0.001, "api"),
            End.completed("Done."));
    assertThat(events.acks()).containsExactly(new Handshake(true), new Acked("1"));
    assertThat(turn.inject("3", "too late")).isFalse();
    assertThat(stdin()).hasSize(2);
  }

  @Test
  void inject_afterTheEnd_isRefusedSoThatTheMessageWaitsForTheNextTurn() throws Exception {
    RunningTurn turn = backend.start(request("plain-answer", "hi"), new TurnRecorder());
    TurnRecorder.end(turn);

    assertThat(turn.inject("2", "too late")).isFalse();
  }

  @Test
  void stop_midTurn_endsStoppedAndEndsTheProcessGroup() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = backend.start(request("hang", "start the long job"), events);
    events.awaitText("Starting a long job.");
    List<Long> pids = pids();

    turn.stop();

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.stopped());
    assertThat(events.events()).last().isEqualTo(End.stopped());
    for (long pid : pids) {
      awaitGone(pid);
    }
  }

  @Test
  void start_resumedTurnWithModel_spawnsTheDocumentedCommandLineAndEnvironment() throws Exception {
    TurnRequest request = request("plain-answer", "again", SESSION, "claude-opus-4-1");
    RunningTurn turn = backend.start(request, new TurnRecorder());
    TurnRecorder.end(turn);

    Path configDir = home.resolve("data").resolve("claude");
    List<String> command = ClaudeSpawn.of(request, standIn.toString(), configDir).command();
    assertThat(Files.readAllLines(dir.resolve("args")))
        .isEqualTo(command.subList(1, command.size()));
    assertThat(Files.readAllLines(dir.resolve("args")))
        .containsSubsequence("--resume", SESSION, "--model", "claude-opus-4-1");
    assertThat(Files.getPosixFilePermissions(configDir))
        .isEqualTo(PosixFilePermissions.fromString("rwx------"));
  }

  /**
   * Regression: Agent, AskUserQuestion and the plan tools were taken away from every session though
   * nothing served their replacements.
   */
  @Test
  void start_noReplacementServed_takesNoBuiltInToolAway() throws Exception {
    RunningTurn turn = backend.start(request("plain-answer", "hi"), new TurnRecorder());

    assertThat(TurnRecorder.end(turn).status()).isEqualTo(BackendEvent.Status.COMPLETED);
    assertThat(Files.readAllLines(dir.resolve("args"))).doesNotContain("--disallowedTools");
  }

  @Test
  void start_replacementsServed_takesAwayTheBuiltInToolsTheyReplace() throws Exception {
    ClaudeBackend serving =
        new ClaudeBackend(
            new CortexHome(home, home.resolve("data")),
            ClaudeBackend.ECHO_GRACE,
            Map.of(),
            groups ->
                groups.contains("core")
                    ? Set.of("agent", "current_time")
                    : Set.of("cortex_ask_user"),
            () -> false);
    Map<String, String> env = new LinkedHashMap<>(request("plain-answer", "hi").environment());
    env.put("FAKE_CLAUDE_DISALLOWED", "Agent,Task");

    RunningTurn turn =
        serving.start(withEnvironment(request("plain-answer", "hi"), env), new TurnRecorder());

    assertThat(TurnRecorder.end(turn).status()).isEqualTo(BackendEvent.Status.COMPLETED);
    assertThat(Files.readAllLines(dir.resolve("args")))
        .containsSubsequence("--disallowedTools", "Agent,Task");
  }

  @Test
  void start_replacementLeftOutByTheAllowlist_keepsTheBuiltInTool() throws Exception {
    ClaudeBackend serving =
        new ClaudeBackend(
            new CortexHome(home, home.resolve("data")),
            ClaudeBackend.ECHO_GRACE,
            Map.of(),
            groups -> Set.of("cortex_ask_user", "current_time"),
            () -> false);
    Map<String, String> env = new LinkedHashMap<>(request("plain-answer", "hi").environment());
    env.put("CORTEX_MCP_TOOL_ALLOWLIST", "mcp__cortex-core__current_time");

    RunningTurn turn =
        serving.start(withEnvironment(request("plain-answer", "hi"), env), new TurnRecorder());

    assertThat(TurnRecorder.end(turn).status()).isEqualTo(BackendEvent.Status.COMPLETED);
    assertThat(Files.readAllLines(dir.resolve("args"))).doesNotContain("--disallowedTools");
  }

  /** A subagent's allowlist leaves agent out: it may not delegate by Claude Code's Agent either. */
  @Test
  void start_agentLeftOutByTheAllowlist_takesAwayAgentAndTaskAllTheSame() throws Exception {
    ClaudeBackend serving =
        new ClaudeBackend(
            new CortexHome(home, home.resolve("data")),
            ClaudeBackend.ECHO_GRACE,
            Map.of(),
            groups -> Set.of("agent", "agent_stop", "current_time"),
            () -> false);
    Map<String, String> env = new LinkedHashMap<>(request("plain-answer", "hi").environment());
    env.put("CORTEX_MCP_TOOL_ALLOWLIST", "current_time");
    env.put("FAKE_CLAUDE_DISALLOWED", "Agent,Task");

    RunningTurn turn =
        serving.start(withEnvironment(request("plain-answer", "hi"), env), new TurnRecorder());

    assertThat(TurnRecorder.end(turn).status()).isEqualTo(BackendEvent.Status.COMPLETED);
    assertThat(Files.readAllLines(dir.resolve("args")))
        .containsSubsequence("--disallowedTools", "Agent,Task");
  }

  /** Regression: as root, every turn failed on Claude Code's refusal of bypassed permissions. */
  @Test
  void refusal_asRootWithoutTheSandboxSetting_saysWhatToDo() {
    ClaudeBackend asRoot =
        new ClaudeBackend(
            new CortexHome(home, home.resolve("data")),
            ClaudeBackend.ECHO_GRACE,
            Map.of(),
            groups -> Set.of(),
            () -> true);

    assertThat(asRoot.refusal(null, null))
        .contains("runs as root")
        .contains("Run the server as another user")
        .contains("CORTEX_CLAUDE_SANDBOX=1");
    assertThatThrownBy(() -> asRoot.start(request("plain-answer", "hi"), new TurnRecorder()))
        .isInstanceOf(BackendException.class)
        .hasMessageContaining("CORTEX_CLAUDE_SANDBOX=1");
    assertThat(dir.resolve("args")).doesNotExist();
  }

  @Test
  void start_asRootOnASandbox_passesClaudeCodesSandboxVariable() throws Exception {
    ClaudeBackend asRoot =
        new ClaudeBackend(
            new CortexHome(home, home.resolve("data")),
            ClaudeBackend.ECHO_GRACE,
            Map.of("CORTEX_CLAUDE_SANDBOX", "1"),
            groups -> Set.of(),
            () -> true);
    Map<String, String> env = new LinkedHashMap<>(request("plain-answer", "hi").environment());
    env.put("CORTEX_CLAUDE_SANDBOX", "1");
    env.put("FAKE_CLAUDE_ENV", dir.resolve("env").toString());

    assertThat(asRoot.refusal(null, null)).isNull();
    RunningTurn turn =
        asRoot.start(withEnvironment(request("plain-answer", "hi"), env), new TurnRecorder());

    assertThat(TurnRecorder.end(turn).status()).isEqualTo(BackendEvent.Status.COMPLETED);
    assertThat(Files.readAllLines(dir.resolve("env"))).contains("IS_SANDBOX=1");
  }

  @Test
  void start_noClaudeBinSet_findsClaudeOnThePath() throws Exception {
    Map<String, String> env = new LinkedHashMap<>(request("plain-answer", "hi").environment());
    env.remove("CORTEX_CLAUDE_BIN");
    env.put("PATH", dir.resolve("nothing-here") + ":" + bin + ":/usr/bin:/bin");
    RunningTurn turn =
        backend.start(withEnvironment(request("plain-answer", "hi"), env), new TurnRecorder());

    assertThat(TurnRecorder.end(turn).status()).isEqualTo(BackendEvent.Status.COMPLETED);
  }

  @Test
  void start_noClaudeAnywhere_refusesWithHowToInstallIt() {
    Map<String, String> env = new LinkedHashMap<>(request("plain-answer", "hi").environment());
    env.remove("CORTEX_CLAUDE_BIN");
    env.put("PATH", dir.resolve("nothing-here").toString());

    assertThatThrownBy(
            () ->
                backend.start(
                    withEnvironment(request("plain-answer", "hi"), env), new TurnRecorder()))
        .isInstanceOf(BackendException.class)
        .hasMessage(
            "Claude Code is not installed: there is no claude program on the PATH. Install it"
                + " (npm install -g @anthropic-ai/claude-code) or set CORTEX_CLAUDE_BIN to the"
                + " path of the claude program.");
  }

  @Test
  void start_claudeBinNotExecutable_refusesNamingTheVariable() throws IOException {
    Path notExecutable = Files.writeString(dir.resolve("claude.txt"), "not a program");
    Map<String, String> env = new LinkedHashMap<>(request("plain-answer", "hi").environment());
    env.put("CORTEX_CLAUDE_BIN", notExecutable.toString());

    assertThatThrownBy(
            () ->
                backend.start(
                    withEnvironment(request("plain-answer", "hi"), env), new TurnRecorder()))
        .isInstanceOf(BackendException.class)
        .hasMessage(
            "CORTEX_CLAUDE_BIN is set to '"
                + notExecutable
                + "', which is not an executable file: set it to the path of the claude program,"
                + " or unset it to use claude from the PATH.");
    assertThat(home.resolve("data")).doesNotExist();
  }

  private TurnRequest request(String transcript, String prompt) {
    return request(transcript, prompt, null, null);
  }

  private TurnRequest request(String transcript, String prompt, String resume, String model) {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", System.getenv("PATH"));
    env.put("CORTEX_CLAUDE_BIN", standIn.toString());
    env.put("CORTEX_SESSION_ID", "s_1");
    env.put("CORTEX_MCP_BUNDLES", "core,ext");
    env.put("FAKE_CLAUDE_TRANSCRIPT", dir.resolve(transcript + ".jsonl").toString());
    env.put("FAKE_CLAUDE_STDIN", dir.resolve("stdin").toString());
    env.put("FAKE_CLAUDE_ARGS", dir.resolve("args").toString());
    env.put("FAKE_CLAUDE_PIDS", dir.resolve("pids").toString());
    return new TurnRequest(
        "s_1",
        List.of(new TurnRequest.Message("1", prompt)),
        resume,
        model,
        dir,
        env,
        dir.resolve("mcp-config.json"),
        false,
        null);
  }

  private static TurnRequest withEnvironment(TurnRequest request, Map<String, String> env) {
    return new TurnRequest(
        request.sessionId(),
        request.messages(),
        request.resume(),
        request.model(),
        request.workingDirectory(),
        env,
        request.mcpConfig(),
        request.strictMcpConfig(),
        request.program());
  }

  /** The user message lines the stand-in read, once standard input has been read to its end. */
  private List<JsonNode> stdin() throws IOException {
    return Files.readAllLines(dir.resolve("stdin"), StandardCharsets.UTF_8).stream()
        .map(JSON::readTree)
        .toList();
  }

  /** The stand-in's pid and its background child's, once it has written them. */
  private List<Long> pids() throws Exception {
    Path file = dir.resolve("pids");
    long deadline = System.nanoTime() + TurnRecorder.DEADLINE.toNanos();
    while (true) {
      if (Files.exists(file)) {
        String text = Files.readString(file).strip();
        if (text.contains(" ")) {
          return java.util.Arrays.stream(text.split(" ")).map(Long::valueOf).toList();
        }
      }
      assertThat(System.nanoTime()).as("the stand-in wrote its pids").isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  private static void awaitGone(long pid) throws InterruptedException {
    long deadline = System.nanoTime() + TurnRecorder.DEADLINE.toNanos();
    while (running(pid)) {
      assertThat(System.nanoTime()).as("process %d ended", pid).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  /** Whether {@code pid} runs (a zombie has ended). */
  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      return !stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
    } catch (IOException e) {
      return false;
    }
  }
}
