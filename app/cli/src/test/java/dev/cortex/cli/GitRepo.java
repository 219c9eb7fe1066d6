package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** A real bare repository made and filled with the git command, reached by a file:// URL. */
final class GitRepo {
  private final Path bare;
  private final Path work;

  private GitRepo(Path bare, Path work) {
    this.bare = bare;
    this.work = work;
  }

  static GitRepo create(Path dir) throws Exception {
    Path bare = dir.resolve("flows.git");
    Path work = dir.resolve("flows-work");
    git(dir, "init", "-q", "--bare", "--initial-branch=main", bare.toString());
    git(dir, "init", "-q", "--initial-branch=main", work.toString());
    git(work, "remote", "add", "origin", bare.toString());
    return new GitRepo(bare, work);
  }

  String url() {
    return "file://" + bare.toAbsolutePath();
  }

  /** Writes the files, commits, tags (when {@code tag} is not null), pushes; returns the commit. */
  String commit(Map<String, String> files, String tag) throws Exception {
    for (Map.Entry<String, String> file : files.entrySet()) {
      Path target = work.resolve(file.getKey());
      Files.createDirectories(target.getParent());
      Files.writeString(target, file.getValue(), StandardCharsets.UTF_8);
    }
    git(work, "add", ".");
    git(work, "commit", "-q", "-m", "change");
    if (tag != null) {
      git(work, "tag", "-a", tag, "-m", tag);
    }
    git(work, "push", "-q", "--follow-tags", "origin", "main");
    return git(work, "rev-parse", "HEAD").strip();
  }

  private static String git(Path dir, String... args) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(
            List.of("git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid"));
    command.addAll(List.of(args));
    Process process =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as("git %s: %s", String.join(" ", args), out).isZero();
    return out;
  }
}
