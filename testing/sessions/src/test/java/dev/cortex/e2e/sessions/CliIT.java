package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.listed;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CliRun;
import dev.cortex.testing.SessionApi;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code cortex chat} and {@code cortex sessions send}: the turns as they come, on a terminal. */
class CliIT extends OnOneServer {
  @Test
  void chat_andSessionsSend_fromTheCli_showTheTurnsAsTheyCome() throws Exception {
    CliRun chat =
        CliRun.run(
            server,
            "hello there\n/quit\n",
            "chat",
            "--name",
            "chatty",
            "--backend",
            "command",
            "--program",
            programs.scripted.toString(),
            "--cwd",
            work.toString());

    assertThat(chat.exitCode()).as(chat.stderr()).isZero();
    assertThat(chat.stderr()).contains("cortex: new session chatty (backend command)");
    assertThat(chat.stdout()).isEqualTo("hello there\n");

    String prompt =
        script(
            Map.of(
                "say",
                "it is time",
                "calls",
                List.of(call("current_time", Map.of("timezone", "UTC")))));
    CliRun send = CliRun.run(server, "", "sessions", "send", "chatty", prompt);
    assertThat(send.exitCode()).as(send.stderr()).isZero();
    assertThat(send.stdout().lines())
        .containsExactly(
            "it is time",
            "  → mcp__cortex-core__current_time {\"timezone\":\"UTC\"}",
            send.stdout().lines().toList().get(2));
    assertThat(send.stdout().lines().toList().get(2)).startsWith("  ← {").contains("UTC");

    // A turn that says nothing for a while gets progress lines on stderr, not on stdout.
    CliRun slow =
        CliRun.run(
            server,
            "",
            "sessions",
            "send",
            "chatty",
            script(Map.of("sleep_ms", 3_500, "say", "slept")),
            "--progress",
            "1");
    assertThat(slow.exitCode()).as(slow.stderr()).isZero();
    assertThat(slow.stdout()).isEqualTo("slept\n");
    assertThat(slow.stderr().lines().filter(l -> l.startsWith("… still working: ")).count())
        .as(slow.stderr())
        .isGreaterThanOrEqualTo(2);
    assertThat(slow.stderr()).contains("0 tool calls so far");
    CliRun quiet =
        CliRun.run(
            server,
            "",
            "sessions",
            "send",
            "chatty",
            script(Map.of("sleep_ms", 2_500, "say", "slept")),
            "--progress",
            "0");
    assertThat(quiet.stderr()).doesNotContain("still working");
    SessionApi.Answer tooOften =
        api.call(
            "send",
            Map.of("session", "chatty", "text", "x", "follow", true, "progress_seconds", 601));
    assertThat(tooOften.code()).isEqualTo("INVALID_ARGUMENT");

    CliRun failed =
        CliRun.run(server, "", "sessions", "send", "chatty", script(Map.of("fail", "no luck")));
    assertThat(failed.exitCode()).isEqualTo(1);
    assertThat(failed.stderr()).contains("cortex: the turn ended failed: no luck");

    CliRun shown = CliRun.run(server, "", "sessions", "show", "chatty");
    assertThat(shown.exitCode()).as(shown.stderr()).isZero();
    assertThat(shown.stdout())
        .startsWith("chatty  idle  backend command  channel cli:chatty\n")
        .contains("you: hello there\nhello there\n")
        .contains("[The turn failed: no luck]");
    CliRun listed = CliRun.run(server, "", "sessions", "list");
    assertThat(listed.exitCode()).isZero();
    assertThat(listed.stdout()).contains("chatty").contains("cli:chatty");
  }
}
