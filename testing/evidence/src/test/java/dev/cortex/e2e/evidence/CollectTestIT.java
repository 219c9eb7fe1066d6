package dev.cortex.e2e.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code cortex collect-test} against a real Git repository and real test runners. */
class CollectTestIT {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path home;
  @TempDir Path repo;
  String claim;
  String criterion;

  @BeforeEach
  void setUp() throws Exception {
    git("init", "-q");
    git("config", "user.email", "test@example.com");
    git("config", "user.name", "Test");
    write("test/pass.test.mjs", "import test from 'node:test';\ntest('ok', () => {});\n");
    write(
        "test/fail.test.mjs",
        "import test from 'node:test';\nimport assert from 'node:assert';\ntest('no', () => assert.equal(1, 2));\n");
    git("add", "-A");
    git("commit", "-q", "-m", "tests");
    JsonNode created =
        tool(
            "cortex_create_claim",
            "{\"project_id\":\"p\",\"statement\":\"s\",\"criteria\":[{\"key\":\"k\",\"description\":\"d\"}]}");
    claim = created.path("claim_id").asString();
    criterion = created.path("criteria").get(0).path("criterion_id").asString();
  }

  void write(String file, String content) throws IOException {
    Path path = repo.resolve(file);
    Files.createDirectories(path.getParent());
    Files.writeString(path, content);
  }

  String git(String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git", "-C", repo.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes()).strip();
    assertThat(process.waitFor()).as(out).isZero();
    return out;
  }

  JsonNode tool(String name, String arguments) throws Exception {
    CortexProcess.Finished run =
        CortexProcess.run(CortexProcess.env(home), "tools", "call", name, arguments);
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    return JSON.readTree(run.stdout());
  }

  CortexProcess.Finished collect(Map<String, String> extraEnv, String... tail) throws Exception {
    List<String> args = new ArrayList<>(List.of("collect-test", "p", claim, criterion));
    args.addAll(List.of(tail));
    Map<String, String> env = CortexProcess.env(home);
    env.putAll(extraEnv);
    ProcessBuilder builder =
        new ProcessBuilder(CortexProcess.command(args.toArray(String[]::new)))
            .directory(repo.toFile());
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    var err = new java.io.ByteArrayOutputStream();
    Thread pump =
        new Thread(
            () -> {
              try {
                process.getErrorStream().transferTo(err);
              } catch (IOException ignored) {
                // ended
              }
            });
    pump.start();
    String out = new String(process.getInputStream().readAllBytes());
    int code = process.waitFor();
    pump.join();
    return new CortexProcess.Finished(code, out, err.toString());
  }

  JsonNode testRuns() throws Exception {
    return tool("cortex_get_context", "{\"project_id\":\"p\",\"include\":[\"test_runs\"]}")
        .path("test_runs");
  }

  @Test
  void passingTests_saveReceiptAndExitZero_outputOnStderr() throws Exception {
    CortexProcess.Finished run = collect(Map.of(), "--", "test/pass.test.mjs");

    assertThat(run.exitCode()).as(run.stderr()).isZero();
    JsonNode receipt = JSON.readTree(run.stdout());
    assertThat(receipt.path("claim_id").asString()).isEqualTo(claim);
    assertThat(receipt.path("criterion_id").asString()).isEqualTo(criterion);
    assertThat(receipt.path("git_revision").asString()).isEqualTo(git("rev-parse", "HEAD"));
    assertThat(receipt.path("runner").asString()).isEqualTo("node --test");
    assertThat(receipt.path("runner_version").asString()).startsWith("v");
    assertThat(receipt.path("files").toString()).isEqualTo("[\"test/pass.test.mjs\"]");
    assertThat(receipt.path("exit_code").asInt()).isZero();
    assertThat(run.stderr()).contains("# pass 1");
    assertThat(testRuns()).hasSize(1);
    assertThat(testRuns().get(0).path("run_id").asString())
        .isEqualTo(receipt.path("run_id").asString());
  }

  @Test
  void failingTests_saveReceiptWithObservedExitCode_andExitOne() throws Exception {
    CortexProcess.Finished run =
        collect(Map.of(), "--", "test/fail.test.mjs", "test/pass.test.mjs");

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(1);
    assertThat(JSON.readTree(run.stdout()).path("exit_code").asInt()).isEqualTo(1);
    assertThat(testRuns()).hasSize(1);
  }

  @Test
  void customRunner_receivesTheFiles_andItsExitCodeIsRecorded() throws Exception {
    CortexProcess.Finished run =
        collect(
            Map.of(),
            "--runner",
            "sh -c 'echo \"ran $*\" >&2; exit 3' runner",
            "--",
            "test/pass.test.mjs");

    assertThat(run.exitCode()).isEqualTo(1);
    assertThat(run.stderr()).contains("ran ./test/pass.test.mjs");
    JsonNode receipt = JSON.readTree(run.stdout());
    assertThat(receipt.path("exit_code").asInt()).isEqualTo(3);
    assertThat(receipt.path("runner").asString()).startsWith("sh -c");
  }

  @Test
  void dirtyWorkingTree_recordsNothing_exitTwo() throws Exception {
    write("notes.txt", "untracked");

    CortexProcess.Finished run = collect(Map.of(), "--", "test/pass.test.mjs");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).contains("not clean");
    assertThat(testRuns()).isEmpty();
  }

  @Test
  void testsThatDirtyTheTree_recordNothing() throws Exception {
    CortexProcess.Finished run =
        collect(Map.of(), "--runner", "touch leftover.txt; true", "--", "test/pass.test.mjs");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(testRuns()).isEmpty();
  }

  @Test
  void untrackedOrDuplicateOrTooManyFiles_areRefused() throws Exception {
    assertThat(collect(Map.of(), "--", "test/missing.test.mjs").stderr())
        .contains("not a file tracked by Git");
    assertThat(collect(Map.of(), "--", "test/pass.test.mjs", "./test/pass.test.mjs").stderr())
        .contains("given twice");
    List<String> nine = new ArrayList<>(List.of("--"));
    for (int i = 0; i < 9; i++) {
      nine.add("test/f" + i + ".mjs");
    }
    CortexProcess.Finished tooMany = collect(Map.of(), nine.toArray(String[]::new));
    assertThat(tooMany.exitCode()).isEqualTo(2);
    assertThat(tooMany.stderr()).contains("1 to 8");
    assertThat(collect(Map.of(), "--", "/etc/passwd").stderr())
        .contains("relative to the Git root");
    assertThat(testRuns()).isEmpty();
  }

  @Test
  void unknownCriterion_isInvalidReference_exitTwo() throws Exception {
    criterion = "no-such-criterion";

    CortexProcess.Finished run = collect(Map.of(), "--", "test/pass.test.mjs");

    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stderr()).contains("INVALID_REFERENCE");
  }

  @Test
  void runnerThatCannotStart_recordsNothing() throws Exception {
    Path bin = Files.createDirectories(home.resolve("only-git"));
    Path gitPath = Path.of(git("--exec-path")).getParent().getParent().resolve("bin/git");
    Files.createSymbolicLink(
        bin.resolve("git"), Files.exists(gitPath) ? gitPath : Path.of("/usr/bin/git"));

    CortexProcess.Finished run =
        collect(Map.of("PATH", bin.toString()), "--", "test/pass.test.mjs");

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
    assertThat(run.stderr()).contains("test runner").contains("no receipt was recorded");
    assertThat(testRuns()).isEmpty();
  }

  @Test
  void runnerCommandNotFound_recordsNothing_exitTwo() throws Exception {
    CortexProcess.Finished run =
        collect(Map.of(), "--runner", "no-such-test-runner-xyz", "--", "test/pass.test.mjs");

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr()).contains("could not be started");
    assertThat(testRuns()).isEmpty();
  }
}
