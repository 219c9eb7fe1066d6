package dev.cortex.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.Deadline;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding files by glob under a real temporary folder. */
class GlobActionTest {
  @TempDir Path dir;

  static final Deadline A_MINUTE = Deadline.after(Duration.ofMinutes(1), Clock.systemUTC());

  Path file(String relative, String modified) throws IOException {
    Path file = dir.resolve(relative);
    Files.createDirectories(file.getParent());
    Files.writeString(file, relative);
    Files.setLastModifiedTime(file, FileTime.from(Instant.parse(modified)));
    return file;
  }

  Actions.GlobResult glob(String pattern, String path) throws ActionException {
    return new GlobAction(dir).glob(new Actions.Glob(pattern, path), A_MINUTE);
  }

  @Test
  void glob_doubleStar_matchesAtTheTopAndBelow_newestFirst() throws Exception {
    Path old = file("a.py", "2026-01-01T00:00:00Z");
    Path newer = file("src/b.py", "2026-06-01T00:00:00Z");
    Path newest = file("src/deep/c.py", "2026-12-01T00:00:00Z");
    file("src/notes.txt", "2026-12-02T00:00:00Z");

    Actions.GlobResult result = glob("**/*.py", null);

    assertThat(result.root()).isEqualTo(dir.toString());
    assertThat(result.files()).containsExactly(newest.toString(), newer.toString(), old.toString());
    assertThat(result.truncated()).isFalse();
  }

  @Test
  void glob_dependencyAndVersionControlFolders_areSkipped() throws Exception {
    Path kept = file("app/index.js", "2026-01-01T00:00:00Z");
    file("node_modules/lib/index.js", "2026-01-02T00:00:00Z");
    file(".git/hooks/index.js", "2026-01-03T00:00:00Z");

    assertThat(glob("**/index.js", null).files()).containsExactly(kept.toString());
  }

  @Test
  void glob_absolutePatternInsidePath_isTakenRelativeToIt() throws Exception {
    Path sub = Files.createDirectories(dir.resolve("sub"));
    Path found = file("sub/x.md", "2026-01-01T00:00:00Z");

    Actions.GlobResult result = glob(sub + "/*.md", sub.toString());

    assertThat(result.files()).containsExactly(found.toString());
  }

  @Test
  void glob_badRequests_failWithStableCodes() throws Exception {
    Path plain = file("plain.txt", "2026-01-01T00:00:00Z");

    assertThatThrownBy(() -> glob("/elsewhere/*.md", dir.toString()))
        .hasMessageContaining("outside path");
    assertThatThrownBy(() -> glob(" ", null)).hasMessageContaining("pattern is required");
    assertThatThrownBy(() -> glob("*", plain.toString()))
        .hasMessageContaining("is not a directory");
    assertThatThrownBy(() -> glob("*", dir.resolve("missing").toString()))
        .isInstanceOfSatisfying(
            ActionException.class, e -> assertThat(e.body().code()).isEqualTo(Codes.NOT_FOUND));
    assertThatThrownBy(() -> glob("*", "relative/path"))
        .hasMessageContaining("must be an absolute path");
  }

  @Test
  void glob_deadlineFallen_stopsTheWalkAndSaysItIsTruncated() throws Exception {
    file("a.txt", "2026-01-01T00:00:00Z");
    Deadline fallen = Deadline.after(Duration.ZERO, Clock.systemUTC());

    Actions.GlobResult result = new GlobAction(dir).glob(new Actions.Glob("*", null), fallen);

    assertThat(result.files()).isEmpty();
    assertThat(result.truncated()).isTrue();
  }
}
