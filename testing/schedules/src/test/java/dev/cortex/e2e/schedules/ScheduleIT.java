package dev.cortex.e2e.schedules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CliRun;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Schedules through {@code cortex schedule} and a running agent server whose clock the test moves:
 * a fire starts a turn whose {@code cortex_context} shows its schedule; a callback's turn shows its
 * source; pause, resume, run-now and remove; bad input is refused and writes nothing.
 */
class ScheduleIT {
  @TempDir static Path home;
  @TempDir static Path work;
  static AgentServer server;
  static SessionApi api;

  /** The scripted agent's script: read cortex_context, then say done. */
  static final String READ_CONTEXT =
      TestJson.JSON.writeValueAsString(
          Map.of(
              "calls",
              List.of(Map.of("tool", "cortex_context", "arguments", Map.of())),
              "say",
              "done"));

  @BeforeAll
  static void start() throws Exception {
    server = new AgentServer(home, Map.of()).start();
    api = new SessionApi(server);
  }

  @AfterAll
  static void stop() throws Exception {
    if (api != null) {
      api.close();
    }
    if (server != null) {
      server.close();
    }
  }

  static CliRun cli(String... args) throws Exception {
    return CliRun.run(server, "", args);
  }

  /** {@code cortex schedule add PROMPT ARGS… --backend command --program <scripted agent>}. */
  static JsonNode add(String prompt, String... args) throws Exception {
    List<String> all = new ArrayList<>(List.of("schedule", "add", prompt));
    all.addAll(List.of(args));
    all.addAll(List.of("--json", "--cwd", work.toString(), "--backend", "command", "--program"));
    all.addAll(ScriptedAgent.command());
    CliRun run = cli(all.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return TestJson.JSON.readTree(run.stdout());
  }

  static JsonNode show(String id) throws Exception {
    CliRun run = cli("schedule", "show", id, "--json");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return TestJson.JSON.readTree(run.stdout());
  }

  /** The first fire of {@code id} that started a session, once there is one. */
  static JsonNode startedFire(String id) {
    JsonNode[] fire = new JsonNode[1];
    Eventually.until(
        "a fire of " + id + " that started",
        AgentServer.LIMIT,
        () -> {
          for (JsonNode f : show(id).path("fires")) {
            if (f.path("state").asString().equals("started")) {
              fire[0] = f;
              return true;
            }
          }
          return false;
        });
    return fire[0];
  }

  /** The content of the first tool result of {@code session} (cortex_context's answer). */
  static JsonNode context(String session) {
    JsonNode result =
        api.awaitEntry(
            session, e -> e.path("kind").asString().equals("tool_result"), "cortex_context");
    assertThat(result.path("body").path("is_error").asBoolean()).as("%s", result).isFalse();
    String content = result.path("body").path("content").asString();
    return TestJson.JSON.readTree(content.substring(content.indexOf('{')));
  }

  @Test
  void aFire_startsATurn_whoseContextNamesItsSchedule() throws Exception {
    JsonNode added = add(READ_CONTEXT, "--project", "nightly", "--every", "1m");
    String id = added.path("id").asString();
    assertThat(added.path("timing").asString()).startsWith("every 1m");
    assertThat(added.path("project").asString()).isEqualTo("nightly");

    CliRun listed = cli("schedule", "list", "--project", "nightly");
    assertThat(listed.stdout()).contains("ID", "NEXT", id, "every 1m", "active");

    server.advanceClock(Duration.ofSeconds(61));
    JsonNode fire = startedFire(id);
    String session = fire.path("session_id").asString();
    JsonNode context = context(session);
    assertThat(context.path("scheduleTaskId").asString()).isEqualTo(id);
    assertThat(context.path("project").asString()).isEqualTo("nightly");
    assertThat(context.path("callbackSource").isNull()).isTrue();
    JsonNode shown = api.show(session);
    assertThat(shown.path("started_by").asString()).isEqualTo("schedule");
    Eventually.until(
        "the fire's outcome",
        AgentServer.LIMIT,
        () -> show(id).path("fires").get(0).path("outcome").asString("").equals("completed"));
  }

  @Test
  void aCallback_startsATurn_whoseContextNamesItsSource() throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of(
                "callback",
                READ_CONTEXT,
                "--source",
                "job:backup-7",
                "--json",
                "--cwd",
                work.toString(),
                "--backend",
                "command",
                "--program"));
    args.addAll(ScriptedAgent.command());
    CliRun run = cli(args.toArray(String[]::new));
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    String session = TestJson.JSON.readTree(run.stdout()).path("session_id").asString();
    JsonNode context = context(session);
    assertThat(context.path("callbackSource").asString()).isEqualTo("job:backup-7");
    assertThat(context.path("scheduleTaskId").isNull()).isTrue();
    assertThat(api.show(session).path("started_by").asString()).isEqualTo("callback");

    // A second callback into that session, with a key, twice: one message.
    for (int i = 0; i < 2; i++) {
      CliRun again =
          cli(
              "callback",
              "{\"say\": \"second\"}",
              "--source",
              "job:backup-7",
              "--session",
              session,
              "--key",
              "run-2");
      assertThat(again.exitCode()).as(again.stderr()).isZero();
    }
    api.awaitEntry(session, SessionApi.said("second"), "the second reply");
    assertThat(SessionApi.userTexts(api.transcript(session)))
        .containsExactly(READ_CONTEXT, "{\"say\": \"second\"}");
  }

  @Test
  void aWorkflowRun_tellsTheSessionItNotifies_whenItEnds() throws Exception {
    String session = api.create(ScriptedAgent.command(), work, Map.of()).path("id").asString();
    Path manifest = work.resolve("hello.yaml");
    java.nio.file.Files.writeString(
        manifest,
        """
        name: hello
        version: "1"
        capabilities: [shell]
        steps:
          - id: greet
            kind: shell
            with: {script: "echo hello"}
        """);
    CliRun run = cli("run", manifest.toString(), "--yes", "--notify-session", session);
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stderr()).contains("told session " + session);
    JsonNode told =
        api.awaitEntry(
            session,
            e ->
                e.path("kind").asString().equals("user")
                    && e.path("body").path("text").asString().startsWith("The workflow run"),
            "the run's notice");
    assertThat(told.path("body").path("text").asString())
        .contains("of hello ended: succeeded", "Its trace: cortex runs show ");
  }

  @Test
  void theScheduleSkill_isAPromptAndAResourceOfTheExtGroup() {
    io.modelcontextprotocol.client.McpSyncClient ext = api.records();
    assertThat(ext.listPrompts().prompts())
        .extracting(io.modelcontextprotocol.spec.McpSchema.Prompt::name)
        .contains("cortex-schedule");
    io.modelcontextprotocol.spec.McpSchema.GetPromptResult prompt =
        ext.getPrompt(
            new io.modelcontextprotocol.spec.McpSchema.GetPromptRequest(
                "cortex-schedule", Map.of()));
    String body =
        ((io.modelcontextprotocol.spec.McpSchema.TextContent) prompt.messages().get(0).content())
            .text();
    assertThat(body).contains("cortex_context", "--project", "cortex schedule add", "--overlap");
    io.modelcontextprotocol.spec.McpSchema.ReadResourceResult resource =
        ext.readResource(
            new io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest(
                "cortex://skill/cortex-schedule/SKILL.md"));
    assertThat(
            ((io.modelcontextprotocol.spec.McpSchema.TextResourceContents)
                    resource.contents().get(0))
                .text())
        .isEqualTo(body);
  }

  @Test
  void pause_resume_runNow_andRemove() throws Exception {
    JsonNode added =
        add(
            READ_CONTEXT,
            "--project",
            "manual",
            "--daily",
            "03:00",
            "--zone",
            "Europe/Paris",
            "--paused");
    String id = added.path("id").asString();
    assertThat(added.path("paused").asBoolean()).isTrue();
    assertThat(cli("schedule", "list", "--project", "manual").stdout()).contains(id, "paused");

    assertThat(cli("schedule", "resume", id).exitCode()).isZero();
    assertThat(show(id).path("schedule").path("next_due").asString()).endsWith("Z");
    assertThat(cli("schedule", "pause", id).exitCode()).isZero();
    assertThat(show(id).path("schedule").path("next_due").isNull()).isTrue();

    assertThat(cli("schedule", "run-now", id).exitCode()).isZero();
    JsonNode fire = startedFire(id);
    assertThat(context(fire.path("session_id").asString()).path("scheduleTaskId").asString())
        .isEqualTo(id);

    assertThat(cli("schedule", "remove", id).exitCode()).isZero();
    CliRun gone = cli("schedule", "show", id);
    assertThat(gone.exitCode()).isNotZero();
    assertThat(gone.stderr()).contains("NOT_FOUND", "No schedule");
  }

  @Test
  void badInput_isRefusedClearly_andWritesNothing() throws Exception {
    String[][] bad = {
      {"--daily", "09:00", "--zone", "Mars/Olympus"},
      {"--cron", "61 * * * *"},
      {"--every", "30s"},
      {"--every", "5m", "--session", "no-such-session"},
      {"--every", "5m", "--overlap", "sometimes"},
      {"--every", "5m", "--daily", "09:00"},
    };
    String[] expected = {
      "not an IANA time zone",
      "not a cron expression",
      "at least one minute",
      "No session 'no-such-session'",
      "overlap is one of skip, queue, parallel",
      "exactly one timing",
    };
    for (int i = 0; i < bad.length; i++) {
      List<String> args =
          new ArrayList<>(List.of("schedule", "add", "do it", "--project", "refused"));
      args.addAll(List.of(bad[i]));
      CliRun run = cli(args.toArray(String[]::new));
      assertThat(run.exitCode()).as(String.join(" ", bad[i])).isNotZero();
      assertThat(run.stderr()).contains(expected[i]).doesNotContain("Exception", "at dev.");
    }
    assertThat(cli("schedule", "list", "--project", "refused").stdout()).contains("No schedules");
    assertThat(server.stderr.toString()).doesNotContain("Exception");
  }
}
