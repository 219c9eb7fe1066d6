package dev.cortex.e2e.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.evidence.EvidenceGroup;
import dev.cortex.storage.Database;
import dev.cortex.testing.CortexProcess;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cortex evidence set-policy} on the built program: exit codes and what it writes. */
class EvidenceCommandIT {
  @TempDir Path home;

  private CortexProcess.Finished setPolicy(String project, String policy) throws Exception {
    return CortexProcess.run(CortexProcess.env(home), "evidence", "set-policy", project, policy);
  }

  /** Projects in the ledger as {@code id policy}. */
  private List<String> projects() {
    try (Database db =
        new Database(
            home.resolve("data"),
            List.of(EvidenceGroup.storageArea()),
            java.time.Clock.systemUTC())) {
      return db.read(
          c -> {
            List<String> rows = new ArrayList<>();
            try (Statement s = c.createStatement();
                ResultSet rs =
                    s.executeQuery(
                        "SELECT project_id || ' ' || policy FROM evidence_projects ORDER BY 1")) {
              while (rs.next()) {
                rows.add(rs.getString(1));
              }
            }
            return rows;
          });
    }
  }

  @Test
  void setPolicy_newThenExistingProject_createsThenSwitchesIt() throws Exception {
    CortexProcess.Finished created = setPolicy("example-api", "provisional-1");
    CortexProcess.Finished switched = setPolicy("example-api", "strict-1");

    assertThat(created.exitCode()).as(created.stderr()).isZero();
    assertThat(created.stdout()).isEqualTo("project example-api: policy provisional-1\n");
    assertThat(switched.exitCode()).as(switched.stderr()).isZero();
    assertThat(projects()).containsExactly("example-api strict-1");
  }

  @Test
  void setPolicy_unknownPolicy_exitsWithUsageNamingTheKnownOnes() throws Exception {
    CortexProcess.Finished run = setPolicy("example-api", "lenient-9");

    assertThat(run.exitCode()).isEqualTo(CortexProcess.USAGE);
    assertThat(run.stderr()).contains("lenient-9", "strict-1", "provisional-1");
    assertThat(run.stdout()).isEmpty();
    assertThat(projects()).isEmpty();
  }

  /**
   * Bug: set-policy accepts a project ID the tools refuse (their project_id pattern is {@code
   * ^[A-Za-z0-9][A-Za-z0-9._:/-]{0,127}$}), creating a project no tool can ever reach.
   */
  @Test
  void setPolicy_projectIdTheToolsRefuse_exitsWithUsageAndCreatesNothing() throws Exception {
    CortexProcess.Finished run = setPolicy("bad project!", "provisional-1");

    assertThat(run.exitCode()).as("stdout: %s", run.stdout()).isEqualTo(CortexProcess.USAGE);
    assertThat(run.stderr()).contains("bad project!");
    assertThat(projects()).isEmpty();
  }
}
