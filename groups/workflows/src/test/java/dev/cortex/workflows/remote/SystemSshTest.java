package dev.cortex.workflows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.transport.SshTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real JGit fetch over {@code ssh://}, through an {@code ssh} on PATH that runs the remote
 * command here (the real {@code git-upload-pack}) and notes the arguments it was given.
 */
class SystemSshTest {
  @TempDir Path dir;
  BareRepo repo;
  Map<String, String> environment;

  @BeforeEach
  void prepare() throws Exception {
    repo = BareRepo.create(dir);
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path ssh = bin.resolve("ssh");
    Files.writeString(
        ssh,
        """
        #!/bin/sh
        printf '%s\\n' "$@" > "$(dirname "$0")/arguments"
        while [ "$1" != "--" ]; do shift; done
        shift 2
        exec /bin/sh -c "$1"
        """);
    Files.setPosixFilePermissions(ssh, PosixFilePermissions.fromString("rwxr-xr-x"));
    environment = new HashMap<>(System.getenv());
    environment.put("PATH", bin + ":" + System.getenv("PATH"));
  }

  @AfterEach
  void close() {
    repo.close();
  }

  @Test
  void fetch_overSsh_runsTheSystemsSshInBatchModeAndGetsTheCommits() throws Exception {
    String commit = repo.commit(Map.of("workflow.yaml", "name: one\n"), "one");
    String url = "ssh://git@localhost:2222" + dir.resolve("repo.git").toAbsolutePath();

    try (Git local = Git.init().setBare(true).setDirectory(dir.resolve("local").toFile()).call()) {
      local
          .fetch()
          .setRemote(url)
          .setRefSpecs("+refs/heads/*:refs/heads/*")
          .setTimeout(30)
          .setTransportConfigCallback(
              transport ->
                  ((SshTransport) transport).setSshSessionFactory(new SystemSsh(environment)))
          .call();

      assertThat(local.getRepository().exactRef(Constants.R_HEADS + "main").getObjectId().name())
          .isEqualTo(commit);
    }
    assertThat(Files.readAllLines(dir.resolve("bin").resolve("arguments")))
        .containsSubsequence("-o", "BatchMode=yes", "-p", "2222", "--", "git@localhost")
        .anyMatch(line -> line.startsWith("git-upload-pack"));
  }
}
