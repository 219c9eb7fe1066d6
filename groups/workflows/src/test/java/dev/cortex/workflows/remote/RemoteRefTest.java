package dev.cortex.workflows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.mcp.tool.ToolException;
import org.junit.jupiter.api.Test;

class RemoteRefTest {
  static RemoteRef parse(String ref) {
    return RemoteRef.parse(ref).orElseThrow();
  }

  @Test
  void ownerRepo_meansGithub_withOptionalRef() {
    assertThat(parse("acme/flows"))
        .isEqualTo(new RemoteRef("acme/flows", "https://github.com/acme/flows.git", null, null));
    assertThat(parse("acme/flows@v1").revision()).isEqualTo("v1");
  }

  @Test
  void hostOwnerRepo_withSubpathAndRef() {
    RemoteRef ref = parse("gitlab.example.org/team/flows/reports/daily.yaml@main");

    assertThat(ref.repository()).isEqualTo("https://gitlab.example.org/team/flows.git");
    assertThat(ref.subpath()).isEqualTo("reports/daily.yaml");
    assertThat(ref.revision()).isEqualTo("main");
    assertThat(parse("GitHub.com/acme/flows.git").repository())
        .isEqualTo("https://github.com/acme/flows.git");
  }

  @Test
  void gitPlusFileUrl_splitsSubpathAndRef() {
    RemoteRef ref = parse("git+file:///srv/git/flows.git//reports/daily.yaml@0123abc");

    assertThat(ref.repository()).isEqualTo("file:///srv/git/flows.git");
    assertThat(ref.subpath()).isEqualTo("reports/daily.yaml");
    assertThat(ref.revision()).isEqualTo("0123abc");
    assertThat(parse("git+file:///srv/git/flows.git").subpath()).isNull();
  }

  @Test
  void gitPlusSsh_keepsTheUserAndTakesTheLastAtAsTheRef() {
    RemoteRef ssh = parse("git+ssh://git@example.org:2222/team/flows.git//a.yaml@release/2");
    RemoteRef scp = parse("git+git@example.org:team/flows.git//a.yaml@v2");
    RemoteRef noRef = parse("git+ssh://git@example.org/team/flows.git");

    assertThat(ssh.repository()).isEqualTo("ssh://git@example.org:2222/team/flows.git");
    assertThat(ssh.revision()).isEqualTo("release/2");
    assertThat(scp.repository()).isEqualTo("git@example.org:team/flows.git");
    assertThat(scp.subpath()).isEqualTo("a.yaml");
    assertThat(noRef.repository()).isEqualTo("ssh://git@example.org/team/flows.git");
    assertThat(noRef.revision()).isNull();
  }

  @Test
  void notRemoteShapes_areLeftToLocalLookup() {
    assertThat(RemoteRef.parse("disk-report")).isEmpty();
    assertThat(RemoteRef.parse("flows/report.yaml")).isEmpty();
    assertThat(RemoteRef.parse("./acme/flows")).isEmpty();
    assertThat(RemoteRef.parse("/abs/path.yaml")).isEmpty();
    assertThat(RemoteRef.parse("examples/workflows/shell-pipeline.yaml")).isEmpty();
  }

  @Test
  void malformedGitPlus_isInvalidArgument_namingTheProblem() {
    assertThatThrownBy(() -> RemoteRef.parse("git+ftp://example.org/x.git"))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("file://, https:// or ssh://")
        .extracting(e -> ((ToolException) e).code())
        .isEqualTo("INVALID_ARGUMENT");
    assertThatThrownBy(() -> RemoteRef.parse("git+file://host/x.git"))
        .hasMessageContaining("absolute path");
    assertThatThrownBy(() -> RemoteRef.parse("git+file:///x.git//../etc/passwd"))
        .hasMessageContaining("'..'");
    assertThatThrownBy(() -> RemoteRef.parse("git+file:///x.git@bad..ref"))
        .hasMessageContaining("is not a Git ref");
    assertThatThrownBy(() -> RemoteRef.parse("git+https://-oProxyCommand=x/y.git"))
        .hasMessageContaining("is not a host");
    assertThatThrownBy(() -> RemoteRef.parse("acme/flows@"))
        .hasMessageContaining("is not a Git ref");
  }
}
