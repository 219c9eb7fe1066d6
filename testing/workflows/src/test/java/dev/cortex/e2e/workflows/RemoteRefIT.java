package dev.cortex.e2e.workflows;

import static dev.cortex.testing.EvidenceServer.args;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.GitRepo;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.WorkflowServer;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * Remote refs against a real local bare repository: trust asked once per commit with its
 * capabilities, recorded in trust.json and shared by the server and the command line.
 */
class RemoteRefIT {
  static final String MANIFEST =
      """
      name: remote-greet
      version: "1"
      description: Says hello from a repository.
      capabilities: [shell]
      steps:
        - id: hello
          kind: shell
          with: {argv: [echo, hello]}
      """;

  @TempDir Path home;
  @TempDir Path dir;
  GitRepo repo;
  String first;

  @BeforeEach
  void repository() throws Exception {
    repo = GitRepo.create(dir);
    first =
        repo.commit(
            Map.of("flows/greet.yaml", MANIFEST, "flows/neighbour.yaml", MANIFEST), "v1.0.0");
  }

  String ref(String file, String revision) {
    return "git+" + repo.url() + "//flows/" + file + "@" + revision;
  }

  static String kinds(WorkflowServer server) {
    return String.join(
        ",",
        server.asked.stream()
            .map(r -> r.message().contains("Trust it?") ? "trust" : "run")
            .toList());
  }

  @Test
  void firstRunAsksTrustWithCommitAndCapabilities_thenOnlyTheRun_untilANewCommit()
      throws Exception {
    try (WorkflowServer server = WorkflowServer.start(home, Map.of())) {
      JsonNode checked = server.ok("check", args("workflow", ref("greet.yaml", "v1")));
      assertThat(checked.path("consent_required").asBoolean()).isTrue();
      assertThat(checked.path("source").path("commit").asString()).isEqualTo(first);
      assertThat(server.asked).as("check never asks").isEmpty();

      JsonNode trace = server.ok("run", args("workflow", ref("greet.yaml", "v1")));

      assertThat(trace.path("status").asString()).isEqualTo("succeeded");
      assertThat(kinds(server)).isEqualTo("trust,run");
      McpSchema.ElicitFormRequest trust = server.asked.get(0);
      assertThat(trust.message())
          .contains("Commit: " + first)
          .contains("Capabilities it declares: shell")
          .contains("Repository: " + repo.url())
          .contains("File: flows/greet.yaml");
      JsonNode source = trace.path("source");
      assertThat(source.path("kind").asString()).isEqualTo("remote");
      assertThat(source.path("repository").asString()).isEqualTo(repo.url());
      assertThat(source.path("subpath").asString()).isEqualTo("flows/greet.yaml");
      assertThat(source.path("commit").asString()).isEqualTo(first);
      assertThat(source.path("location").asString())
          .isEqualTo("git+" + repo.url() + "//flows/greet.yaml@" + first);
      Path trustFile = home.resolve("trust.json");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(trustFile)))
          .isEqualTo("rw-------");
      assertThat(Files.readString(trustFile)).contains(first).contains("flows/greet.yaml");

      server.asked.clear();
      assertThat(
              server
                  .ok("check", args("workflow", ref("greet.yaml", "v1")))
                  .path("consent_required")
                  .asBoolean())
          .isFalse();
      server.ok("run", args("workflow", ref("greet.yaml", first.substring(0, 10))));
      assertThat(kinds(server)).as("same commit: the run only").isEqualTo("run");
      assertThat(
              server
                  .ok("check", args("workflow", ref("neighbour.yaml", "v1")))
                  .path("consent_required")
                  .asBoolean())
          .as("a neighbour is not trusted")
          .isTrue();

      String second = repo.commit(Map.of("flows/greet.yaml", MANIFEST + "# v1.1\n"), "v1.1.0");
      server.asked.clear();
      assertThat(
              server
                  .ok("check", args("workflow", ref("greet.yaml", "v1")))
                  .path("consent_required")
                  .asBoolean())
          .isTrue();
      server.ok("run", args("workflow", ref("greet.yaml", "v1")));
      assertThat(kinds(server)).as("a new commit: trust again").isEqualTo("trust,run");
      assertThat(server.asked.get(0).message()).contains("Commit: " + second);
    }
  }

  @Test
  void moreCapabilitiesThanConsented_askTrustAgain_andADeclineRecordsNothing() throws Exception {
    try (WorkflowServer server = WorkflowServer.start(home, Map.of())) {
      server.ok("run", args("workflow", ref("greet.yaml", "v1.0.0")));
    }
    String before = Files.readString(home.resolve("trust.json"));
    repo.commit(
        Map.of("flows/greet.yaml", MANIFEST.replace("[shell]", "[shell, network]")), "v1.2.0");
    try (WorkflowServer server =
        WorkflowServer.start(
            home,
            Map.of(),
            request -> new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.DECLINE, null))) {
      Outcome refused =
          server.fails("run", args("workflow", ref("greet.yaml", "v1")), "CONSENT_DECLINED");

      assertThat(refused.errorMessage()).contains("declined trust in");
      assertThat(server.asked).hasSize(1);
      assertThat(server.asked.get(0).message())
          .contains("Capabilities it declares: shell, network");
      assertThat(Files.readString(home.resolve("trust.json"))).isEqualTo(before);
      assertThat(server.runCount()).isEqualTo(1);
    }
  }

  @Test
  void trust_isSharedByTheCommandLineAndTheServer() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    JsonNode checked = WorkflowRunControlIT.cli(env, 0, "check", ref("greet.yaml", "main"));
    assertThat(checked.path("consent_required").asBoolean()).isTrue();

    CortexProcess.Finished ran = CortexProcess.run(env, "run", ref("greet.yaml", "main"), "--yes");

    assertThat(ran.exitCode()).as(ran.stderr()).isZero();
    assertThat(ran.stderr()).contains("trusted by --yes");
    try (WorkflowServer server = WorkflowServer.start(home, Map.of())) {
      assertThat(
              server
                  .ok("check", args("workflow", ref("greet.yaml", "v1")))
                  .path("consent_required")
                  .asBoolean())
          .isFalse();
      server.ok("run", args("workflow", ref("greet.yaml", "v1")));
      assertThat(kinds(server)).isEqualTo("run");
    }
  }

  @Test
  void badRemoteRefs_areClearErrors_andRecordNothing() throws Exception {
    try (WorkflowServer server = WorkflowServer.start(home, Map.of())) {
      Outcome noRef =
          server.fails("check", args("workflow", ref("greet.yaml", "v9")), "INVALID_REFERENCE");
      Outcome noFile =
          server.fails("run", args("workflow", ref("absent.yaml", "main")), "INVALID_REFERENCE");
      Outcome malformed =
          server.fails(
              "check", args("workflow", "git+ftp://example.org/x.git"), "INVALID_ARGUMENT");
      Outcome noRepo =
          server.fails(
              "check",
              args("workflow", "git+file://" + dir.resolve("none.git") + "@main"),
              "INVALID_REFERENCE");

      assertThat(noRef.errorMessage()).contains("has no tag, branch or commit 'v9'");
      assertThat(noFile.errorMessage()).contains("no workflow at 'flows/absent.yaml'");
      assertThat(malformed.errorMessage()).contains("not a valid remote ref");
      assertThat(noRepo.errorMessage()).contains("no Git repository at");
      for (Outcome outcome : java.util.List.of(noRef, noFile, malformed, noRepo)) {
        assertThat(outcome.errorMessage()).doesNotContain(home.toString());
      }
      assertThat(server.asked).isEmpty();
      assertThat(server.runCount()).isZero();
      assertThat(home.resolve("trust.json")).doesNotExist();
    }
  }
}
