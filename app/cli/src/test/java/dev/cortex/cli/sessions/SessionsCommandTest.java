package dev.cortex.cli.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.cli.Main;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Sessions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The session verbs in-process, without a server: what they refuse before asking one, how they say
 * that none runs, and how a turn's entries and progress read on a terminal.
 */
class SessionsCommandTest {
  @TempDir Path home;

  record Run(int code, String out, String err) {}

  Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        Main.run(
            new ByteArrayInputStream(new byte[0]),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            Map.of("CORTEX_HOME", home.toString()),
            args);
    return new Run(
        code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void verbs_requestThatBreaksARule_failWithItsSentence() {
    assertThat(run("sessions", "list", "--limit", "0"))
        .isEqualTo(new Run(1, "", "cortex: INVALID_ARGUMENT: limit must be 1 to 200.\n"));
    assertThat(run("sessions", "send", "a1", "hi", "--progress", "700"))
        .isEqualTo(
            new Run(
                1,
                "",
                "cortex: INVALID_ARGUMENT: progress_seconds must be from 0 (no progress lines) to"
                    + " 600, not 700.\n"));
    assertThat(run("sessions", "new", "--composition", "partial").err())
        .isEqualTo(
            "cortex: INVALID_ARGUMENT: composition is direct or none; started_by is person,"
                + " agent, schedule or callback.\n");
  }

  @Test
  void verbs_withoutAServer_failUnavailable_onceEach() {
    for (String[] args :
        new String[][] {
          {"sessions", "show", "a1"},
          {"sessions", "stop", "a1"},
          {"chat", "a1"},
          {"sessions", "list"}
        }) {
      Run run = run(args);
      assertThat(run.code()).as(String.join(" ", args)).isEqualTo(1);
      assertThat(run.err()).startsWith("cortex: UNAVAILABLE: No webhook token: ").hasLineCount(1);
    }
  }

  @Test
  void progress_saysHowLongAndHowManyToolCalls() {
    assertThat(SessionVerbs.progress(new Sessions.Progress(false, "ex-1", 125, 20, 1)))
        .isEqualTo("… still working: 2 min 5 s, 1 tool call so far");
    assertThat(SessionVerbs.progress(new Sessions.Progress(false, "ex-1", 9, 9, 3)))
        .isEqualTo("… still working: 9 s, 3 tool calls so far");
    assertThat(SessionVerbs.progress(new Sessions.Progress(true, null, 61, 61, 0)))
        .isEqualTo("… still queued behind the running turn (1 min 1 s)");
  }

  @Test
  void print_eachKindOfEntry_asAPersonReadsIt() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    String[][] entries = {
      {"user", "{\"text\":\"hi\",\"source\":\"person\"}"},
      {"assistant", "{\"text\":\"hello\"}"},
      {"tool_use", "{\"id\":\"t1\",\"name\":\"clock\",\"input\":{\"n\":1.0}}"},
      {"tool_result", "{\"tool_use_id\":\"t1\",\"content\":\"one\\ntwo\",\"is_error\":true}"},
      {"system", "{\"text\":\"The turn failed: no luck\"}"},
      {"note", "{\"text\":\"odd line\"}"},
      {"later", "{}"}
    };
    for (String[] entry : entries) {
      Transcripts.print(
          out,
          new Sessions.Entry(
              1, null, entry[0], WireJson.mapper().readTree(entry[1]), "2026-12-01T10:00:00Z"));
    }

    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            """
            you: hi
            hello
              → clock {"n":1.0}
              ← one …  (error)
            [The turn failed: no luck]
            [note: odd line]
            {"seq":1,"execution_id":null,"kind":"later","body":{},"at":"2026-12-01T10:00:00Z"}
            """);
  }
}
