package dev.cortex.server.sessions.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.backend.BackendEvent.Acked;
import dev.cortex.server.sessions.backend.BackendEvent.Cost;
import dev.cortex.server.sessions.backend.BackendEvent.End;
import dev.cortex.server.sessions.backend.BackendEvent.Handshake;
import dev.cortex.server.sessions.backend.BackendEvent.Note;
import dev.cortex.server.sessions.backend.BackendEvent.Started;
import dev.cortex.server.sessions.backend.BackendEvent.Text;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * How single stream-json lines read, beyond the recorded transcripts of {@link ClaudeBackendTest}.
 */
class ClaudeStreamTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static final String INIT_SUBSCRIPTION =
      "{\"type\":\"system\",\"subtype\":\"init\",\"session_id\":\"s-1\",\"model\":\"claude-x\","
          + "\"apiKeySource\":\"none\"}";

  @Test
  void accept_successWithIsError_endsFailedWithTheResultText() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());
    stream.promptLine(request("hi"));

    ClaudeStream.Read read =
        stream.accept(
            line(
                "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":true,"
                    + "\"result\":\"Invalid API key · Please run /login\",\"total_cost_usd\":0,"
                    + "\"usage\":{\"input_tokens\":0,\"output_tokens\":0}}"));

    assertThat(read.events())
        .containsExactly(new Handshake(false), new Cost(null, 0, 0, 0, 0, 0.0, "api"));
    assertThat(read.end()).isEqualTo(End.failed("Invalid API key · Please run /login"));
  }

  @Test
  void accept_errorSubtypeWithoutDetail_namesTheSubtype() {
    ClaudeStream stream = new ClaudeStream("claude-y", Map.of());

    ClaudeStream.Read read =
        stream.accept(
            line("{\"type\":\"result\",\"subtype\":\"error_max_turns\",\"is_error\":true}"));

    assertThat(read.events())
        .containsExactly(new Handshake(false), new Cost("claude-y", 0, 0, 0, 0, null, "api"));
    assertThat(read.end()).isEqualTo(End.failed("Claude Code ended the turn with error_max_turns"));
  }

  @Test
  void accept_noApiKeyOnASubscription_isPlanMode() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());
    stream.accept(line(INIT_SUBSCRIPTION));

    assertThat(stream.accept(line(result(0.5))).events())
        .containsExactly(new Handshake(false), new Cost("claude-x", 1, 2, 3, 4, 0.5, "plan"));
  }

  @Test
  void accept_noApiKeyButACloudProvider_isApiMode() {
    ClaudeStream stream = new ClaudeStream(null, Map.of("CLAUDE_CODE_USE_BEDROCK", "1"));
    stream.accept(line(INIT_SUBSCRIPTION));

    assertThat(stream.accept(line(result(0.5))).events())
        .containsExactly(new Handshake(false), new Cost("claude-x", 1, 2, 3, 4, 0.5, "api"));
  }

  @Test
  void accept_claudeCodeWithoutEchoes_endsAtTheFirstResult() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());
    stream.promptLine(request("first"));
    assertThat(stream.injectLine("2", "second")).isNotNull();

    assertThat(stream.accept(line(result(0.1))).end()).isEqualTo(End.completed("done"));
  }

  /**
   * An echo of a uuid Cortex did not write used to acknowledge the oldest message not echoed, and a
   * repeated echo the next one: messages counted as delivered that Claude Code had not taken in.
   */
  @Test
  void accept_echoOfAnUnknownUuidOrARepeat_acknowledgesNothing() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());
    String prompt = stream.promptLine(request("first"));
    stream.injectLine("2", "second");

    ClaudeStream.Read unknown =
        stream.accept(line("{\"type\":\"user\",\"isReplay\":true,\"uuid\":\"not-ours\"}"));
    ClaudeStream.Read once = stream.accept(line(echo(prompt)));
    ClaudeStream.Read again = stream.accept(line(echo(prompt)));

    assertThat(unknown.events()).containsExactly(new Handshake(true));
    assertThat(once.events()).containsExactly(new Acked("1"));
    assertThat(again.events()).isEmpty();
    assertThat(stream.accept(line(result(0.1))).end()).as("the second is not echoed").isNull();
  }

  @Test
  void accept_echoWithoutAUuid_acknowledgesTheOldestMessageNotEchoed() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());
    stream.promptLine(request("first"));
    stream.injectLine("2", "second");

    ClaudeStream.Read first = stream.accept(line("{\"type\":\"user\",\"isReplay\":true}"));
    ClaudeStream.Read second = stream.accept(line("{\"type\":\"user\",\"isReplay\":true}"));

    assertThat(first.events()).containsExactly(new Handshake(true), new Acked("1"));
    assertThat(second.events()).containsExactly(new Acked("2"));
    ClaudeStream.Read read = stream.accept(line(result(0.3)));
    assertThat(read.events()).containsExactly(new Cost(null, 1, 2, 3, 4, 0.3, "api"));
    assertThat(read.end()).isEqualTo(End.completed("done"));
  }

  @Test
  void accept_resultWhileAMessageIsNotEchoed_isHeldBack_withTheEndingItWouldGive() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());
    String prompt = stream.promptLine(request("first"));
    stream.accept(line(echo(prompt)));
    stream.injectLine("2", "second");

    ClaudeStream.Read held = stream.accept(line(result(0.1)));
    ClaudeStream.Read next = stream.accept(line("{\"type\":\"assistant\",\"message\":{}}"));

    assertThat(held.end()).isNull();
    assertThat(held.events()).isEmpty();
    assertThat(held.held())
        .containsExactly(new Cost(null, 1, 2, 3, 4, 0.1, "api"), End.completed("done"));
    assertThat(next.held()).as("held by the result's line only").isNull();
  }

  /** A Claude Code that echoes nothing has had its prompt once it answered it. */
  @Test
  void accept_resultWithoutAnyEcho_saysThePromptWasTakenWithoutAcknowledgements() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());
    stream.promptLine(request("first"));

    ClaudeStream.Read read = stream.accept(line(result(0.1)));

    assertThat(read.events())
        .containsExactly(new Handshake(false), new Cost(null, 1, 2, 3, 4, 0.1, "api"));
    assertThat(read.end()).isEqualTo(End.completed("done"));
  }

  @Test
  void injectLine_afterTheEnd_isNullAndLaterLinesGiveNothing() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());
    stream.accept(line(result(0.1)));

    assertThat(stream.injectLine("2", "late")).isNull();
    ClaudeStream.Read read = stream.accept(line("{\"type\":\"assistant\",\"message\":{}}"));
    assertThat(read.events()).isEmpty();
    assertThat(read.end()).isNull();
  }

  @Test
  void accept_secondInitOfTheSameSession_startsOnce() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());

    assertThat(stream.accept(line(INIT_SUBSCRIPTION)).events()).containsExactly(new Started("s-1"));
    assertThat(stream.accept(line(INIT_SUBSCRIPTION)).events()).isEmpty();
  }

  @Test
  void accept_assistantBlocksOfOtherKinds_thinkingSkippedUnknownNoted() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());

    assertThat(
            stream
                .accept(
                    line(
                        "{\"type\":\"assistant\",\"message\":{\"content\":["
                            + "{\"type\":\"thinking\",\"thinking\":\"hmm\"},"
                            + "{\"type\":\"text\",\"text\":\"a\"},"
                            + "{\"type\":\"hologram\"},"
                            + "{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Read\"}]}}"))
                .events())
        .containsExactly(
            new Text("a"),
            new Note("Claude Code sent an assistant content block of unknown type 'hologram'"),
            new BackendEvent.ToolUse("t1", "Read", "{}"));
  }

  /**
   * Regression: every turn showed the person "[note: Claude Code printed an event of unknown type
   * 'command_lifecycle']".
   */
  @Test
  void accept_knownEventsWithNothingForTheChat_giveNoEventAndNoReport() {
    List<String> reported = new java.util.ArrayList<>();
    ClaudeStream stream = new ClaudeStream(null, Map.of(), reported::add);

    for (String line :
        List.of(
            "{\"type\":\"command_lifecycle\",\"command_uuid\":\"u1\",\"state\":\"started\"}",
            "{\"type\":\"rate_limit_event\",\"rate_limit_info\":{\"status\":\"allowed\"}}",
            "{\"type\":\"stream_event\",\"event\":{\"type\":\"message_start\"}}",
            "{\"type\":\"tool_progress\",\"tool_use_id\":\"t1\",\"elapsed_time_seconds\":2}",
            "{\"type\":\"system\",\"subtype\":\"hook_response\",\"hook_name\":\"SessionStart\"}",
            "{\"type\":\"system\",\"subtype\":\"task_started\",\"task_id\":\"b1\"}",
            "{\"type\":\"system\",\"subtype\":\"status\",\"status\":null}")) {
      assertThat(stream.accept(line(line)).events()).as(line).isEmpty();
    }
    assertThat(reported).isEmpty();
  }

  @Test
  void accept_unknownTypeOrSystemSubtype_isReportedToTheOperatorNotShown() {
    List<String> reported = new java.util.ArrayList<>();
    ClaudeStream stream = new ClaudeStream(null, Map.of(), reported::add);

    assertThat(stream.accept(line("{\"type\":\"hologram\",\"x\":1}")).events()).isEmpty();
    assertThat(stream.accept(line("{\"type\":\"system\",\"subtype\":\"teleport\"}")).events())
        .isEmpty();

    assertThat(reported).containsExactly("'hologram'", "'system' of subtype 'teleport'");
  }

  @Test
  void accept_compactBoundary_isANote() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());

    assertThat(
            stream.accept(line("{\"type\":\"system\",\"subtype\":\"compact_boundary\"}")).events())
        .containsExactly(new Note("Claude Code: compact_boundary"));
  }

  @Test
  void accept_systemStatus_isANoteWithTheStatus() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());

    assertThat(
            stream
                .accept(
                    line("{\"type\":\"system\",\"subtype\":\"status\",\"status\":\"compacting\"}"))
                .events())
        .containsExactly(new Note("Claude Code: status (compacting)"));
  }

  @Test
  void accept_lineLongerThanTheCap_isANote() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());

    assertThat(stream.accept(new Lines.Line("{\"type\":\"assistant\"", true)).events())
        .containsExactly(
            new Note(
                "Claude Code printed a line longer than 16777216 bytes; it was cut and dropped"));
  }

  @Test
  void flatten_toolResultBlocks_textJoinedOthersNamedOrAsJson() {
    assertThat(
            ClaudeStream.flatten(
                JSON.readTree(
                    "[{\"type\":\"text\",\"text\":\"one\"},{\"type\":\"image\",\"source\":{}},"
                        + "{\"type\":\"text\",\"text\":\"two\"},{\"type\":\"tool_reference\","
                        + "\"tool_name\":\"x\"}]")))
        .isEqualTo("one\n[image]\ntwo\n{\"type\":\"tool_reference\",\"tool_name\":\"x\"}");
    assertThat(ClaudeStream.flatten(JSON.readTree("\"plain\""))).isEqualTo("plain");
    assertThat(ClaudeStream.flatten(JSON.missingNode())).isEmpty();
  }

  @Test
  void promptLine_userMessage_carriesTheTextAndAFreshUuid() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());

    var first = JSON.readTree(stream.promptLine(request("a \"quoted\"\nline")));
    var second = JSON.readTree(stream.injectLine("2", "b"));

    assertThat(first.path("message").path("content").asString()).isEqualTo("a \"quoted\"\nline");
    assertThat(first.path("parent_tool_use_id").isNull()).isTrue();
    assertThat(first.has("priority")).isFalse();
    assertThat(second.path("priority").asString()).isEqualTo("next");
    assertThat(second.path("uuid").asString()).isNotEqualTo(first.path("uuid").asString());
  }

  @Test
  void accept_echoes_sayThatClaudeCodeAcknowledges_thenAcknowledgeEachLinesMessages() {
    ClaudeStream stream = new ClaudeStream(null, Map.of());
    String prompt = stream.promptLine(request("first", "second"));
    String injected = stream.injectLine("3", "third");

    ClaudeStream.Read first = stream.accept(line(echo(prompt)));
    ClaudeStream.Read third = stream.accept(line(echo(injected)));

    assertThat(first.events()).containsExactly(new Handshake(true), new Acked("1"), new Acked("2"));
    assertThat(third.events()).containsExactly(new Acked("3"));
    assertThat(stream.accept(line(result(0.1))).end()).isEqualTo(End.completed("done"));
  }

  /** Claude Code's echo of a user message line it took in. */
  private static String echo(String userLine) {
    return "{\"isReplay\":true," + userLine.substring(1);
  }

  /** A turn of {@code texts}, the messages numbered from 1. */
  private static TurnRequest request(String... texts) {
    List<TurnRequest.Message> messages = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      messages.add(new TurnRequest.Message(Integer.toString(i + 1), texts[i]));
    }
    return new TurnRequest(
        "s_1", messages, null, null, Path.of("/"), Map.of(), Path.of("/mcp.json"), false, null);
  }

  private static String result(double usd) {
    return "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"done\","
        + "\"total_cost_usd\":"
        + usd
        + ",\"usage\":{\"input_tokens\":1,\"output_tokens\":2,\"cache_read_input_tokens\":3,"
        + "\"cache_creation_input_tokens\":4}}";
  }

  private static Lines.Line line(String text) {
    return new Lines.Line(text, false);
  }
}
