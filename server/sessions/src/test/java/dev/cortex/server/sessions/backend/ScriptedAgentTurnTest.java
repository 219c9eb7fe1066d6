package dev.cortex.server.sessions.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.backend.BackendEvent.Acked;
import dev.cortex.server.sessions.backend.BackendEvent.Cost;
import dev.cortex.server.sessions.backend.BackendEvent.End;
import dev.cortex.server.sessions.backend.BackendEvent.Handshake;
import dev.cortex.server.sessions.backend.BackendEvent.Note;
import dev.cortex.server.sessions.backend.BackendEvent.Started;
import dev.cortex.server.sessions.backend.BackendEvent.Text;
import dev.cortex.server.sessions.backend.BackendEvent.ToolResult;
import dev.cortex.server.sessions.backend.BackendEvent.ToolUse;
import dev.cortex.testing.ScriptedAgent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scripted test agent of {@code test-fixtures} run by the command backend: each step of its
 * script language, as the backend's events. (Its MCP calls against a real {@code cortex mcp} are
 * tested where the built jar is, in the CLI's {@code ScriptedAgentIT}.)
 */
class ScriptedAgentTurnTest {
  @TempDir Path dir;

  @Test
  void start_plainPrompt_isSaidBack() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = start("hello there", null, null, events);

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("hello there"));
    assertThat(events.events())
        .containsExactly(
            new Started("scripted-s_1"),
            new Text("hello there"),
            new Cost("scripted", 0, 0, 0, 0, 0.0, "api"),
            End.completed("hello there"));
  }

  @Test
  void start_resumedTurnWithModel_resumesTheSessionAndCostsTheModel() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = start("{\"say\":[\"one\",\"two\"]}", "conv-7", "model-x", events);

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("two"));
    assertThat(events.events())
        .containsExactly(
            new Started("conv-7"),
            new Text("one"),
            new Text("two"),
            new Cost("model-x", 0, 0, 0, 0, 0.0, "api"),
            End.completed("two"));
  }

  @Test
  void inject_awaitedAndEchoed_reachesTheRunningTurn() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn =
        start(
            "{\"say\":\"ready\",\"await_inject\":2,\"echo_injected\":true,\"cost\":false}",
            null,
            null,
            events);
    events.awaitText("ready");

    assertThat(turn.inject("2", "first")).isTrue();
    assertThat(turn.inject("3", "second, with \"quotes\"\nand a newline")).isTrue();

    assertThat(TurnRecorder.end(turn))
        .isEqualTo(End.completed("injected: second, with \"quotes\"\nand a newline"));
    assertThat(events.events())
        .containsExactly(
            new Started("scripted-s_1"),
            new Text("ready"),
            new Text("injected: first"),
            new Text("injected: second, with \"quotes\"\nand a newline"),
            End.completed("injected: second, with \"quotes\"\nand a newline"));
    assertThat(events.acks())
        .as("it says it acknowledges, then acknowledges its prompt and each injected message")
        .containsExactly(new Handshake(true), new Acked("1"), new Acked("2"), new Acked("3"));
  }

  @Test
  void start_noAckMode_saysOnItsFirstLineThatItDoesNotAcknowledge() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn =
        start(
            "{\"say\":\"plain\"}", null, null, events, ScriptedAgent.command(List.of("--no-ack")));

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("plain"));
    assertThat(events.acks()).containsExactly(new Handshake(false));
    assertThat(events.events()).first().isEqualTo(new Started("scripted-s_1"));
  }

  @Test
  void start_failCostAndMalformed_giveANoteTheCostAndAFailedEnd() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn =
        start(
            "{\"malformed\":true,\"say\":\"trying\",\"fail\":\"it went wrong\",\"cost\":"
                + "{\"model\":\"m\",\"input_tokens\":12,\"output_tokens\":5,\"cache_read_tokens\":3,"
                + "\"cache_write_tokens\":1,\"usd\":null,\"mode\":\"plan\"}}",
            null,
            null,
            events);

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.failed("it went wrong"));
    assertThat(events.events())
        .containsExactly(
            new Started("scripted-s_1"),
            new Note(
                "the backend printed a line that is not JSON: this line is not JSON: the script"
                    + " asked for a malformed line"),
            new Text("trying"),
            new Cost("m", 12, 5, 3, 1, null, "plan"),
            End.failed("it went wrong"));
  }

  @Test
  void start_exitWithoutEnd_endsFailedWithTheExitCodeAndStderr() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = start("{\"say\":\"bye\",\"exit_without_end\":true}", null, null, events);

    End expected =
        End.failed(
            "the backend exited with code 3 before the turn ended: scripted agent: exiting"
                + " without an end line, as the script says");
    assertThat(TurnRecorder.end(turn)).isEqualTo(expected);
    assertThat(events.events())
        .containsExactly(new Started("scripted-s_1"), new Text("bye"), expected);
  }

  @Test
  void stop_duringASleep_endsStopped() throws Exception {
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn = start("{\"say\":\"sleeping\",\"sleep_ms\":600000}", null, null, events);
    events.awaitText("sleeping");

    turn.stop();

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.stopped());
  }

  @Test
  void start_unknownScriptKey_endsFailedNamingIt() throws Exception {
    RunningTurn turn = start("{\"sya\":\"typo\"}", null, null, new TurnRecorder());

    assertThat(TurnRecorder.end(turn).error())
        .startsWith(
            "the script cannot be followed: the script has unknown keys [sya]; known keys:");
  }

  @Test
  void start_callToAServerThatIsNotThere_isAnErrorResultAndTheTurnGoesOn() throws Exception {
    Files.writeString(
        dir.resolve("mcp-config.json"),
        "{\"mcpServers\":{\"cortex-core\":{\"command\":\""
            + dir.resolve("no-such-program")
            + "\",\"args\":[]}}}");
    TurnRecorder events = new TurnRecorder();
    RunningTurn turn =
        start(
            "{\"calls\":[{\"server\":\"elsewhere\",\"tool\":\"current_time\"},"
                + "{\"tool\":\"current_time\",\"arguments\":{\"timezone\":\"UTC\"}}],"
                + "\"say\":\"done\"}",
            null,
            null,
            events);

    assertThat(TurnRecorder.end(turn)).isEqualTo(End.completed("done"));
    assertThat(events.events().subList(0, 3))
        .containsExactly(
            new Started("scripted-s_1"),
            new Text("done"),
            new ToolUse("call-1", "mcp__elsewhere__current_time", "{}"));
    assertThat(events.events().get(3))
        .isEqualTo(
            new ToolResult(
                "call-1",
                "the MCP configuration has no server 'elsewhere' (it has: cortex-core)",
                true));
    assertThat(events.events().get(4))
        .isEqualTo(
            new ToolUse("call-2", "mcp__cortex-core__current_time", "{\"timezone\":\"UTC\"}"));
    ToolResult failed = (ToolResult) events.events().get(5);
    assertThat(failed.error()).isTrue();
    assertThat(failed.content()).startsWith("the MCP server 'cortex-core' did not start: ");
  }

  private RunningTurn start(String prompt, String resume, String model, TurnRecorder events)
      throws BackendException {
    return start(prompt, resume, model, events, ScriptedAgent.command());
  }

  private RunningTurn start(
      String prompt, String resume, String model, TurnRecorder events, List<String> command)
      throws BackendException {
    Map<String, String> env = new LinkedHashMap<>();
    env.put("PATH", System.getenv("PATH"));
    env.put("HOME", System.getProperty("user.home"));
    env.put("CORTEX_SESSION_ID", "s_1");
    return new CommandBackend()
        .start(
            new TurnRequest(
                "s_1",
                List.of(new TurnRequest.Message("1", prompt)),
                resume,
                model,
                dir,
                env,
                dir.resolve("mcp-config.json"),
                false,
                command),
            events);
  }
}
