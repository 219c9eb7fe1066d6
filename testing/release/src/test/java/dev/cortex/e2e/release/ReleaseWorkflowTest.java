package dev.cortex.e2e.release;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Checkout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * The release workflow ({@code .github/workflows/release.yml}), which runs only on the public
 * repository's host: its structure as the host reads it (triggers, the platform matrix, jobs and
 * steps, the expressions' contexts) and the shell of every {@code run} step through {@code bash
 * -n}, since no workflow linter is at hand here.
 */
class ReleaseWorkflowTest {
  private static final Path WORKFLOW = Checkout.path(".github/workflows/release.yml");
  private static final Pattern EXPRESSION = Pattern.compile("\\$\\{\\{(.*?)}}");
  private static final Set<String> CONTEXTS =
      Set.of("github", "env", "matrix", "runner", "inputs", "secrets", "needs", "steps", "job");

  private static JsonNode workflow() throws IOException {
    return new YAMLMapper().readTree(Files.readString(WORKFLOW));
  }

  @Test
  void triggers_areAPushedVersionTagAndAManualRunNamingOne() throws IOException {
    JsonNode on = workflow().path("on");

    assertThat(texts(on.path("push").path("tags"))).containsExactly("v*");
    JsonNode tag = on.path("workflow_dispatch").path("inputs").path("tag");
    assertThat(tag.path("required").asBoolean()).isTrue();
    assertThat(tag.path("type").asString()).isEqualTo("string");
    assertThat(workflow().path("permissions").path("contents").asString()).isEqualTo("read");
  }

  @Test
  void buildMatrix_coversLinuxMacosAndWindowsOnX64AndArm64() throws IOException {
    JsonNode build = workflow().path("jobs").path("build");
    List<String> platforms = new ArrayList<>();
    for (JsonNode entry : build.path("strategy").path("matrix").path("include")) {
      platforms.add(entry.path("platform").asString());
      assertThat(entry.path("runner").asString()).as("runner of %s", entry).isNotBlank();
    }

    assertThat(platforms)
        .containsExactlyInAnyOrder(
            "linux-x64",
            "linux-aarch64",
            "macos-x64",
            "macos-aarch64",
            "windows-x64",
            "windows-aarch64");
    assertThat(build.path("strategy").path("fail-fast").asBoolean(true)).isFalse();
    assertThat(build.path("runs-on").asString()).isEqualTo("${{ matrix.runner }}");
    // The names tools/release/build gives its artefacts: cortex-V-OS-ARCH.
    String script = Files.readString(Checkout.path("tools/release/build"));
    for (String part : List.of("os=linux", "os=macos", "os=windows", "arch=x64", "arch=aarch64")) {
      assertThat(script).contains(part);
    }
  }

  @Test
  void buildJob_runsTheReleaseBuildFromTheTagsHistoryAndKeepsItsFiles() throws IOException {
    List<JsonNode> steps = steps("build");

    JsonNode checkout = step(steps, "actions/checkout@");
    assertThat(checkout.path("with").path("fetch-depth").asInt(-1)).isZero();
    assertThat(step(steps, "actions/setup-java@").path("with").path("java-version").asString())
        .isEqualTo("25");
    assertThat(runs(steps)).anyMatch(run -> run.startsWith("tools/release/build "));
    assertThat(step(steps, "actions/upload-artifact@").path("with").path("path").asString())
        .isEqualTo("dist/");
  }

  @Test
  void releaseJob_attachesEveryFileWithChecksumsAndAChangelogFromTheTags() throws IOException {
    JsonNode release = workflow().path("jobs").path("release");
    List<JsonNode> steps = steps("release");
    String scripts = String.join("\n", runs(steps));

    assertThat(texts(release.path("needs"))).containsExactly("build");
    assertThat(release.path("permissions").path("contents").asString()).isEqualTo("write");
    assertThat(step(steps, "actions/download-artifact@").path("with").path("path").asString())
        .isEqualTo("parts");
    assertThat(scripts)
        .contains("sha256sum -- * > SHA256SUMS")
        .contains("git describe --tags --abbrev=0 --match 'v*'")
        .contains("git log --no-merges")
        .contains("gh release create \"$TAG\" release/*")
        .contains("--notes-file CHANGELOG.md")
        .contains("cortex-*.tar.gz")
        .contains("cortex-*.mcpb");
  }

  @Test
  void everyJobAndStep_isWellFormed() throws IOException {
    JsonNode jobs = workflow().path("jobs");
    assertThat(jobs.size()).isEqualTo(2);
    for (var job : jobs.properties()) {
      JsonNode body = job.getValue();
      assertThat(body.path("runs-on").isMissingNode()).as(job.getKey()).isFalse();
      assertThat(body.path("timeout-minutes").asInt(0)).as(job.getKey()).isBetween(1, 120);
      for (JsonNode step : body.path("steps")) {
        assertThat(step.path("name").asString()).as("%s: %s", job.getKey(), step).isNotBlank();
        assertThat(step.has("uses") ^ step.has("run")).as("uses or run: %s", step).isTrue();
        if (step.has("uses")) {
          assertThat(step.path("uses").asString()).matches("[a-z-]+/[a-z-]+@v\\d+");
        }
      }
    }
  }

  @Test
  void expressions_nameOnlyContextsTheHostKnows() throws IOException {
    Matcher expression = EXPRESSION.matcher(Files.readString(WORKFLOW));
    Set<String> used = new HashSet<>();
    while (expression.find()) {
      String inner = expression.group(1).strip();
      for (String word : inner.split("[^A-Za-z_.]+")) {
        if (word.contains(".")) {
          used.add(word.substring(0, word.indexOf('.')));
        }
      }
    }

    assertThat(used).isNotEmpty().isSubsetOf(CONTEXTS);
  }

  @Test
  void runSteps_areValidBash() throws Exception {
    for (String job : List.of("build", "release")) {
      for (String run : runs(steps(job))) {
        String script = EXPRESSION.matcher(run).replaceAll("EXPRESSION");
        Process bash = new ProcessBuilder("bash", "-n").redirectErrorStream(true).start();
        bash.getOutputStream().write(script.getBytes(StandardCharsets.UTF_8));
        bash.getOutputStream().close();
        String output = new String(bash.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bash.waitFor()).as("bash -n of a %s step: %s\n%s", job, output, run).isZero();
      }
    }
  }

  private static List<JsonNode> steps(String job) throws IOException {
    List<JsonNode> steps = new ArrayList<>();
    workflow().path("jobs").path(job).path("steps").forEach(steps::add);
    assertThat(steps).as("steps of %s", job).isNotEmpty();
    return steps;
  }

  private static JsonNode step(List<JsonNode> steps, String usesPrefix) {
    return steps.stream()
        .filter(step -> step.path("uses").asString("").startsWith(usesPrefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no step uses " + usesPrefix));
  }

  private static List<String> runs(List<JsonNode> steps) {
    return steps.stream().filter(s -> s.has("run")).map(s -> s.path("run").asString()).toList();
  }

  private static List<String> texts(JsonNode node) {
    List<String> texts = new ArrayList<>();
    if (node.isArray()) {
      node.forEach(item -> texts.add(item.asString()));
    } else if (!node.isMissingNode()) {
      texts.add(node.asString());
    }
    return texts;
  }
}
