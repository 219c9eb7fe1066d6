package dev.cortex.workflows.activity;

import static dev.cortex.workflows.activity.ActivityTestInputs.environment;
import static dev.cortex.workflows.activity.ActivityTestInputs.failure;
import static dev.cortex.workflows.activity.ActivityTestInputs.manifest;
import static dev.cortex.workflows.activity.ActivityTestInputs.step;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Json;
import dev.cortex.testing.Eventually;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShellActivityTest {
  private final ShellActivity shell = new ShellActivity();

  @TempDir Path home;

  private ActivityInput input(String with) {
    return ActivityTestInputs.input(StepKind.SHELL, with, null, environment(home));
  }

  private static String with(Object value) {
    return Json.write(value);
  }

  @Test
  void run_argv_capturesExitCodeStdoutAndStderr() throws Exception {
    ActivityResult result =
        shell.run(input(with(Map.of("argv", List.of("sh", "-c", "echo out; echo err >&2")))));

    assertThat(result.output().get("exit_code").asInt()).isZero();
    assertThat(result.output().get("stdout").asString()).isEqualTo("out\n");
    assertThat(result.output().get("stderr").asString()).isEqualTo("err\n");
    assertThat(result.output().has("json")).isFalse();
    assertThat(result.output().has("stdout_truncated")).isFalse();
    assertThat(result.summary()).isEqualTo("exit 0, 1 line");
  }

  @Test
  void run_argv_passesArgumentsWithoutShellInterpretation() throws Exception {
    ActivityResult result = shell.run(input(with(Map.of("argv", List.of("echo", "$HOME", "a b")))));

    assertThat(result.output().get("stdout").asString()).isEqualTo("$HOME a b\n");
  }

  @Test
  void run_scriptWithStdinAndEnv_runsThroughShell() throws Exception {
    ActivityResult result =
        shell.run(
            input(
                with(
                    Map.of(
                        "script", "cat; echo \"$GREETING\"",
                        "stdin", "line one\nline two\n",
                        "env", Map.of("GREETING", "hello")))));

    assertThat(result.output().get("stdout").asString()).isEqualTo("line one\nline two\nhello\n");
    assertThat(result.summary()).isEqualTo("exit 0, 3 lines");
  }

  @Test
  void run_env_mergesOverTheActivityEnvironmentNotTheJvmEnvironment() throws Exception {
    Map<String, String> variables =
        Map.of("PATH", System.getenv("PATH"), "BASE", "inherited", "OVERRIDDEN", "old");
    ActivityInput input =
        ActivityTestInputs.input(
            StepKind.SHELL,
            with(
                Map.of(
                    "script",
                    "echo \"$BASE $OVERRIDDEN $EXTRA ${HOME-unset}\"",
                    "env",
                    Map.of("OVERRIDDEN", "new", "EXTRA", "x"))),
            null,
            environment(home, variables));

    ActivityResult result = shell.run(input);

    assertThat(result.output().get("stdout").asString()).isEqualTo("inherited new x unset\n");
  }

  @Test
  void run_cwd_runsThere_relativeFromTheProcessDirectory() throws Exception {
    ActivityResult absolute =
        shell.run(input(with(Map.of("argv", List.of("pwd"), "cwd", home.toString()))));
    ActivityResult relative = shell.run(input(with(Map.of("argv", List.of("pwd"), "cwd", "src"))));

    assertThat(Path.of(absolute.output().get("stdout").asString().strip()).toRealPath())
        .isEqualTo(home.toRealPath());
    assertThat(Path.of(relative.output().get("stdout").asString().strip()).toRealPath())
        .isEqualTo(Path.of("src").toRealPath());
  }

  @Test
  void run_cwdMissing_failsInvalidInput() {
    ActivityFailure failure =
        failure(shell, input(with(Map.of("argv", List.of("pwd"), "cwd", home + "/missing"))));

    assertThat(failure.kind()).isEqualTo("invalid_input");
    assertThat(failure.retryable()).isFalse();
  }

  @Test
  void run_parseJson_putsStdoutValueInJson() throws Exception {
    ActivityResult result =
        shell.run(
            input(with(Map.of("argv", List.of("echo", "{\"a\": [1, 2]}"), "parse_json", true))));

    assertThat(result.output().get("json").get("a").get(1).asInt()).isEqualTo(2);
  }

  @Test
  void run_parseJsonOnText_failsInvalidOutputWithOutput() {
    ActivityFailure failure =
        failure(
            shell, input(with(Map.of("argv", List.of("echo", "not json"), "parse_json", true))));

    assertThat(failure.kind()).isEqualTo("invalid_output");
    assertThat(failure.getMessage()).startsWith("stdout is not JSON");
    assertThat(failure.output().get("stdout").asString()).isEqualTo("not json\n");
  }

  @Test
  void run_exitNotOk_failsExitStatusWithLastStderrLineAndOutput() {
    ActivityFailure failure =
        failure(
            shell,
            input(
                with(
                    Map.of(
                        "script",
                        "echo partial; echo first >&2; echo 'last words' >&2; echo >&2; exit 3"))));

    assertThat(failure.kind()).isEqualTo("exit_status");
    assertThat(failure.getMessage()).isEqualTo("exit 3: last words");
    assertThat(failure.retryable()).isTrue();
    assertThat(failure.output().get("exit_code").asInt()).isEqualTo(3);
    assertThat(failure.output().get("stdout").asString()).isEqualTo("partial\n");
    assertThat(failure.output().get("stderr").asString()).contains("last words");
  }

  @Test
  void run_exitNotOkWithLongStderr_messageCutTo200Characters() {
    ActivityFailure failure =
        failure(shell, input(with(Map.of("script", "printf '%0500d\\n' 7 >&2; exit 1"))));

    assertThat(failure.getMessage()).startsWith("exit 1: 0000").endsWith("...");
    assertThat(failure.getMessage().length()).isEqualTo("exit 1: ".length() + 200);
  }

  @Test
  void run_exitWithoutStderr_messageIsTheCode() {
    ActivityFailure failure = failure(shell, input(with(Map.of("argv", List.of("false")))));

    assertThat(failure.getMessage()).isEqualTo("exit 1");
  }

  @Test
  void run_okExitCodes_acceptsListedCodes() throws Exception {
    ActivityResult result =
        shell.run(input(with(Map.of("argv", List.of("false"), "ok_exit_codes", List.of(0, 1)))));

    assertThat(result.output().get("exit_code").asInt()).isEqualTo(1);
    assertThat(result.summary()).isEqualTo("exit 1, 0 lines");
  }

  @Test
  void run_programNotOnPath_failsNotFoundNotRetryable() {
    ActivityFailure failure =
        failure(shell, input(with(Map.of("argv", List.of("cortex-no-such-program")))));

    assertThat(failure.kind()).isEqualTo("not_found");
    assertThat(failure.getMessage()).isEqualTo("program 'cortex-no-such-program' is not on PATH");
    assertThat(failure.retryable()).isFalse();
  }

  @Test
  void run_programPathMissing_failsNotFound() {
    ActivityFailure failure =
        failure(shell, input(with(Map.of("argv", List.of(home + "/no-such-program")))));

    assertThat(failure.kind()).isEqualTo("not_found");
    assertThat(failure.retryable()).isFalse();
    assertThat(failure.getMessage()).doesNotContain("java.", "Exception");
  }

  @Test
  void run_argvAndScript_failsInvalidInput() {
    ActivityFailure both =
        failure(shell, input(with(Map.of("argv", List.of("true"), "script", "true"))));
    ActivityFailure neither = failure(shell, input(with(Map.of("stdin", "x"))));

    assertThat(both.kind()).isEqualTo("invalid_input");
    assertThat(both.retryable()).isFalse();
    assertThat(neither.kind()).isEqualTo("invalid_input");
  }

  @Test
  void run_bothStreamsLarge_readConcurrentlyWithoutDeadlock() throws Exception {
    String script =
        "head -c 1000000 /dev/zero | tr '\\0' a; head -c 1000000 /dev/zero | tr '\\0' b >&2";

    ActivityResult result = shell.run(input(with(Map.of("script", script))));

    assertThat(result.output().get("stdout").asString()).hasSize(1_000_000);
    assertThat(result.output().get("stderr").asString()).hasSize(1_000_000);
    assertThat(result.output().has("stdout_truncated")).isFalse();
  }

  @Test
  void run_outputPastLimit_keepsHeadAndTailAroundAMarkerAndMarksTruncated() throws Exception {
    ShellActivity capped = new ShellActivity(1024);
    String script = "head -c 100000 /dev/zero | tr '\\0' a; echo end; echo oops >&2";

    ActivityResult result = capped.run(input(with(Map.of("script", script))));

    String stdout = result.output().get("stdout").asString();
    assertThat(stdout)
        .startsWith("a".repeat(768) + "\n[... " + (100_004 - 1024) + " bytes omitted ...]\n")
        .endsWith("a".repeat(252) + "end\n");
    assertThat(result.output().get("stdout_truncated").asBoolean()).isTrue();
    assertThat(result.output().has("stderr_truncated")).isFalse();
  }

  @Test
  void run_backgroundChild_isEndedWhenTheProgramExits() throws Exception {
    ActivityResult result =
        shell.run(input(with(Map.of("script", "sleep 300 >/dev/null 2>&1 & echo $!"))));

    long child = Long.parseLong(result.output().get("stdout").asString().strip());
    Eventually.until("the process ended", ActivityTestInputs.DEADLINE, () -> gone(child));
  }

  @Test
  void run_interrupted_killsProgramAndDescendantsThenRethrows() throws Exception {
    Path pids = home.resolve("pids");
    String script =
        "echo $$ > "
            + pids
            + ".tmp; sleep 300 & echo $! >> "
            + pids
            + ".tmp; mv "
            + pids
            + ".tmp "
            + pids
            + "; wait";

    Throwable thrown =
        ActivityTestInputs.interrupted(
            shell, input(with(Map.of("script", script))), () -> Files.exists(pids));

    assertThat(thrown).isInstanceOf(InterruptedException.class);
    for (String pid : Files.readAllLines(pids)) {
      Eventually.until(
          "the process ended",
          ActivityTestInputs.DEADLINE,
          () -> gone(Long.parseLong(pid.strip())));
    }
  }

  @Test
  void preflight_programNotOnPath_namesStepAndProgram() {
    Step step = step(StepKind.SHELL, Map.of("argv", List.of("cortex-no-such-program", "x")));

    assertThat(shell.preflight(step, manifest(step), environment(home)))
        .containsExactly("step 's': program 'cortex-no-such-program' is not on PATH");
  }

  @Test
  void preflight_pathFromTheEnvironment_isWhereProgramsAreLooked() {
    Step step = step(StepKind.SHELL, Map.of("argv", List.of("sh")));

    assertThat(shell.preflight(step, manifest(step), environment(home))).isEmpty();
    assertThat(
            shell.preflight(
                step, manifest(step), environment(home, Map.of("PATH", home.toString()))))
        .containsExactly("step 's': program 'sh' is not on PATH");
  }

  @Test
  void preflight_templatedValues_areSkipped() {
    Step step =
        step(
            StepKind.SHELL,
            Map.of("argv", List.of("${{ .params.tool }}"), "cwd", "${{ .params.dir }}"));

    assertThat(shell.preflight(step, manifest(step), environment(home))).isEmpty();
  }

  @Test
  void preflight_programPathMissingOrNotExecutable_isAProblem() throws IOException {
    Path plain = Files.writeString(home.resolve("plain.txt"), "x");
    Step missing = step(StepKind.SHELL, Map.of("argv", List.of(home + "/missing")));
    Step notExecutable =
        step(StepKind.SHELL, Map.of("argv", List.of("./plain.txt"), "cwd", home.toString()));

    assertThat(shell.preflight(missing, manifest(missing), environment(home)))
        .containsExactly("step 's': program '" + home + "/missing' does not exist");
    assertThat(shell.preflight(notExecutable, manifest(notExecutable), environment(home)))
        .containsExactly("step 's': program './plain.txt' is not executable");
    assertThat(plain).exists();
  }

  @Test
  void preflight_cwdNotADirectory_isAProblem() {
    Step step = step(StepKind.SHELL, Map.of("script", "true", "cwd", home + "/nowhere"));

    assertThat(shell.preflight(step, manifest(step), environment(home)))
        .containsExactly("step 's': working directory '" + home + "/nowhere' is not a directory");
  }

  @Test
  void preflight_scriptWithShell_hasNoProblem() {
    Step step = step(StepKind.SHELL, Map.of("script", "echo hi"));

    assertThat(shell.preflight(step, manifest(step), environment(home))).isEmpty();
  }

  /** Whether the process has ended (a zombie not yet reaped by init counts as ended). */
  private static boolean gone(long pid) {
    if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
      try {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
      } catch (IOException e) {
        return true;
      }
    }
    return true;
  }
}
