package dev.cortex.workflows.remote;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.run.WorkflowRef;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrustStoreTest {
  static final String REPO = "file:///srv/flows.git";
  static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";

  @TempDir Path home;

  TrustStore store() {
    return new TrustStore(
        new CortexHome(home, home.resolve("data")),
        Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC));
  }

  static WorkflowRef ref(String subpath, String commit) {
    return WorkflowRef.remote("git+" + REPO + "//" + subpath, REPO, subpath, commit);
  }

  @Test
  void consent_coversThatFileAtThatCommit_withThoseCapabilities() {
    store().record(ref("a.yaml", COMMIT), "a", List.of("shell", "network"));

    TrustStore reopened = store();
    assertThat(reopened.covers(ref("a.yaml", COMMIT), List.of("shell"))).isTrue();
    assertThat(reopened.covers(ref("a.yaml", COMMIT), List.of("shell", "network"))).isTrue();
    assertThat(reopened.covers(ref("a.yaml", COMMIT), List.of("shell", "database"))).isFalse();
    assertThat(reopened.covers(ref("b.yaml", COMMIT), List.of())).as("a neighbour").isFalse();
    assertThat(reopened.covers(ref("a.yaml", COMMIT.replace('0', 'f')), List.of()))
        .as("another commit")
        .isFalse();
  }

  @Test
  void recordingAgain_replacesTheConsentOfThatWorkflow() {
    store().record(ref("a.yaml", COMMIT), "a", List.of("shell"));
    store().record(ref("a.yaml", COMMIT), "a", List.of("shell", "database"));
    store().record(ref("b.yaml", COMMIT), "b", List.of());

    List<TrustStore.Grant> grants = store().grants();
    assertThat(grants).hasSize(2);
    assertThat(grants.get(0).subpath()).isEqualTo("a.yaml");
    assertThat(grants.get(0).capabilities()).containsExactly("database", "shell");
    assertThat(grants.get(0).consentedAt()).isEqualTo("2026-11-30T10:00:00Z");
  }

  @Test
  void theFile_isOwnerOnly_andReadableJson() throws Exception {
    store().record(ref("a.yaml", COMMIT), "a", List.of("shell"));

    Path file = home.resolve("trust.json");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    assertThat(Files.readString(file))
        .contains("\"repository\" : \"" + REPO + "\"")
        .contains("\"commit\" : \"" + COMMIT + "\"")
        .contains("\"consented_at\"");
  }

  @Test
  void aDamagedFile_isUnavailable_andLeftAsItIs() throws Exception {
    Files.writeString(home.resolve("trust.json"), "{not json");

    assertThatThrownBy(() -> store().covers(ref("a.yaml", COMMIT), List.of()))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("$CORTEX_HOME/trust.json cannot be read")
        .extracting(e -> ((ToolException) e).code())
        .isEqualTo("UNAVAILABLE");
    assertThatThrownBy(() -> store().record(ref("a.yaml", COMMIT), "a", List.of()))
        .isInstanceOf(ToolException.class);
    assertThat(Files.readString(home.resolve("trust.json"))).isEqualTo("{not json");
  }

  @Test
  void workflowRef_readsRepositorySubpathAndCommitBackFromItsLocation() {
    WorkflowRef remote = ref("flows/a.yaml", COMMIT);
    WorkflowRef stored = new WorkflowRef(remote.kind(), remote.ref(), remote.location());

    assertThat(remote.location()).isEqualTo("git+" + REPO + "//flows/a.yaml@" + COMMIT);
    assertThat(stored).isEqualTo(remote);
    assertThat(new WorkflowRef("path", "x.yaml", "/w/x.yaml").repository()).isNull();
  }
}
