package dev.cortex.workflows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.mcp.tool.ToolException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.util.FileUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolution rules against a real bare repository reached by a file:// URL. */
class GitCacheTest {
  @TempDir Path dir;
  BareRepo repo;
  GitCache cache;
  String first;
  String second;
  String third;

  @BeforeEach
  void fill() throws Exception {
    repo = BareRepo.create(dir);
    cache = new GitCache(dir.resolve("cache"));
    first = repo.commit(Map.of("workflow.yaml", "name: one\n", "flows/a.yaml", "a1"), "one");
    repo.tag("v1.0.0");
    second = repo.commit(Map.of("workflow.yaml", "name: two\n", "flows/a.yaml", "a2"), "two");
    repo.tag("v1.10.0");
    repo.branch("stable");
    third =
        repo.commit(
            Map.of("workflow.yaml", "name: three\n", "flows/b/workflow.yml", "b3"), "three");
    repo.tag("v1.9.0");
    repo.tag("release");
  }

  @AfterEach
  void close() {
    repo.close();
  }

  GitCache.Checkout read(String ref) {
    return cache.read(RemoteRef.parse(ref).orElseThrow());
  }

  String git(String suffix) {
    return "git+" + repo.url() + suffix;
  }

  @Test
  void noRef_takesTheHighestSemverTag_numerically() {
    GitCache.Checkout checkout = read(git(""));

    assertThat(checkout.commit()).isEqualTo(second);
    assertThat(checkout.path()).isEqualTo("workflow.yaml");
    assertThat(checkout.text()).isEqualTo("name: two\n");
  }

  @Test
  void versionPrefix_takesTheHighestTagUnderIt() {
    assertThat(read(git("@v1")).commit()).isEqualTo(second);
    assertThat(read(git("@v1.9")).commit()).isEqualTo(third);
    assertThat(read(git("@v1.0.0")).commit()).isEqualTo(first);
  }

  @Test
  void hexDigits_nameACommit_fullOrAbbreviated() {
    assertThat(read(git("@" + first)).commit()).isEqualTo(first);
    assertThat(read(git("@" + first.substring(0, 7))).text()).isEqualTo("name: one\n");
  }

  @Test
  void otherNames_areTagsOrBranches() {
    assertThat(read(git("@stable")).commit()).isEqualTo(second);
    assertThat(read(git("@release")).commit()).isEqualTo(third);
    assertThat(read(git("@main")).commit()).isEqualTo(third);
  }

  @Test
  void subpath_isAFile_orADirectoryWithWorkflowYaml() {
    assertThat(read(git("//flows/a.yaml@v1.0.0")).text()).isEqualTo("a1");
    GitCache.Checkout dirCheckout = read(git("//flows/b@main"));
    assertThat(dirCheckout.path()).isEqualTo("flows/b/workflow.yml");
    assertThat(dirCheckout.text()).isEqualTo("b3");
  }

  @Test
  void aBranchMoves_andTheNextReadSeesItsNewCommit() throws Exception {
    assertThat(read(git("@main")).commit()).isEqualTo(third);
    String fourth = repo.commit(Map.of("workflow.yaml", "name: four\n"), "four");

    assertThat(read(git("@main")).commit()).isEqualTo(fourth);
  }

  @Test
  void aPinnedCommit_isReadFromTheCache_whenTheRepositoryIsGone() throws Exception {
    read(git("@main"));
    FileUtils.delete(dir.resolve("repo.git").toFile(), FileUtils.RECURSIVE);

    assertThat(read(git("@" + first)).text()).isEqualTo("name: one\n");
    assertThatThrownBy(() -> read(git("@main")))
        .isInstanceOf(ToolException.class)
        .extracting(e -> ((ToolException) e).code())
        .isEqualTo("INVALID_REFERENCE");
  }

  @Test
  void missingThings_areInvalidReference_namingWhatIsMissing() {
    assertThatThrownBy(() -> read(git("@nope")))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("has no tag, branch or commit 'nope'");
    assertThatThrownBy(() -> read(git("@deadbeef")))
        .hasMessageContaining("has no commit 'deadbeef'");
    assertThatThrownBy(() -> read(git("//flows/none.yaml@main")))
        .hasMessageContaining("no workflow at 'flows/none.yaml'");
    assertThatThrownBy(() -> read("git+file://" + dir.resolve("absent.git")))
        .hasMessageContaining("no Git repository at")
        .extracting(e -> ((ToolException) e).code())
        .isEqualTo("INVALID_REFERENCE");
  }

  @Test
  void noSemverTag_andNoRef_asksForARef() throws Exception {
    Path other = Files.createDirectories(dir.resolve("other"));
    try (BareRepo untagged = BareRepo.create(other)) {
      untagged.commit(Map.of("workflow.yaml", "x"), "x");

      assertThatThrownBy(() -> read("git+" + untagged.url()))
          .hasMessageContaining("has no vX.Y.Z tag")
          .hasMessageContaining("@main");
    }
  }

  @Test
  void errors_neverNameTheCacheDirectory() {
    assertThatThrownBy(() -> read(git("@nope")))
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain(dir.resolve("cache").toString()));
  }
}
