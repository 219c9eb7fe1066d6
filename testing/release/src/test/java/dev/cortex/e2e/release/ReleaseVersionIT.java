package dev.cortex.e2e.release;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Checkout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tools/release/version}: the version of a checkout from its tags, on real git repositories.
 */
class ReleaseVersionIT {
  @TempDir Path dir;
  private Path repo;

  @BeforeEach
  void createRepository() throws Exception {
    repo = Files.createDirectories(dir.resolve("repo"));
    git("init", "-q", "--initial-branch=main");
  }

  @Test
  void version_noTag_isZeroDevWithCommitCountAndHash() throws Exception {
    commit();
    String sha = commit();

    assertThat(version()).isEqualTo("0.0.0-dev.2.g" + sha);
  }

  @Test
  void version_cleanCheckoutAtATag_isTheTagsVersion() throws Exception {
    commit();
    git("tag", "-a", "v1.2.3", "-m", "release");

    assertThat(version()).isEqualTo("1.2.3");
  }

  @Test
  void version_commitsAfterATag_isTheNextPatchAsADevVersion() throws Exception {
    commit();
    git("tag", "-a", "v1.2.3", "-m", "release");
    commit();
    String sha = commit();

    assertThat(version()).isEqualTo("1.2.4-dev.2.g" + sha);
  }

  @Test
  void version_commitsAfterAPreReleaseTag_extendThePreRelease() throws Exception {
    commit();
    git("tag", "v2.0.0-rc.1");
    String sha = commit();

    assertThat(version()).isEqualTo("2.0.0-rc.1.dev.1.g" + sha);
  }

  @Test
  void version_uncommittedChanges_areMarkedDirtyUnlessCommittedIsAsked() throws Exception {
    String sha = commit();
    git("tag", "-a", "v1.0.0", "-m", "release");
    Files.writeString(repo.resolve("file.txt"), "changed\n");

    assertThat(version()).isEqualTo("1.0.0-dev.0.g" + sha + ".dirty");
    assertThat(version("--committed")).isEqualTo("1.0.0");
  }

  @Test
  void version_tagThatIsNotSemantic_isRefused() throws Exception {
    commit();
    git("tag", "v1.2");

    Result result = run(repo.toString());

    assertThat(result.code()).isEqualTo(1);
    assertThat(result.stderr()).contains("tag v1.2 is not vMAJOR.MINOR.PATCH");
  }

  @Test
  void version_outsideARepository_isTheBuildDefault() throws Exception {
    Path plain = Files.createDirectories(dir.resolve("plain"));

    assertThat(run(plain.toString()).stdout().strip()).isEqualTo("0.0.0-dev");
  }

  private String version(String... flags) throws Exception {
    List<String> args = new ArrayList<>(List.of(flags));
    args.add(repo.toString());
    Result result = run(args.toArray(String[]::new));
    assertThat(result.code()).as(result.stderr()).isZero();
    return result.stdout().strip();
  }

  private record Result(int code, String stdout, String stderr) {}

  private static Result run(String... args) throws Exception {
    Path script = Checkout.path("tools/release/version");
    List<String> command = new ArrayList<>(List.of(script.toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().put("GIT_CEILING_DIRECTORIES", System.getProperty("java.io.tmpdir"));
    Process process = builder.start();
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    return new Result(process.waitFor(), stdout, stderr);
  }

  private int commits;

  /** Commits a change to file.txt and returns the short hash. */
  private String commit() throws Exception {
    Files.writeString(repo.resolve("file.txt"), "change " + ++commits + "\n");
    git("add", "file.txt");
    git("commit", "-q", "-m", "change " + commits);
    return git("rev-parse", "--short=7", "HEAD").strip();
  }

  private String git(String... args) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of("git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid"));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).directory(repo.toFile()).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as("git %s: %s", String.join(" ", args), out).isZero();
    return out;
  }
}
