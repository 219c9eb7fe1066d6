package dev.cortex.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.StartupException;
import dev.cortex.base.settings.CortexToml;
import dev.cortex.protocol.webhook.SubagentRoles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AgentsTableTest {
  @TempDir Path dir;

  List<SubagentRoles.Role> load(String toml) throws Exception {
    Files.writeString(dir.resolve("cortex.toml"), toml);
    return CortexToml.load(dir, Map.of(), List.of(AgentsTable.TABLE)).get(AgentsTable.TABLE);
  }

  @Test
  void load_aRoleWithEveryKey_isReadAsWritten() throws Exception {
    List<SubagentRoles.Role> roles =
        load(
            "[agents.reviewer]\n"
                + "description = \"Reviews a change.\"\n"
                + "system_prompt = \"  Read the diff.  \"\n"
                + "backend = \"command\"\n"
                + "model = \"m-1\"\n"
                + "tools = [\"remote_read\", \"cost_query\"]\n"
                + "[agents.bare]\n");
    assertThat(roles).extracting(SubagentRoles.Role::name).containsExactly("reviewer", "bare");
    SubagentRoles.Role reviewer = roles.get(0);
    assertThat(reviewer.description()).isEqualTo("Reviews a change.");
    assertThat(reviewer.systemPrompt()).isEqualTo("Read the diff.");
    assertThat(reviewer.backend()).isEqualTo("command");
    assertThat(reviewer.model()).isEqualTo("m-1");
    assertThat(reviewer.tools()).containsExactly("remote_read", "cost_query");
    SubagentRoles.Role bare = roles.get(1);
    assertThat(bare.description()).isEqualTo("The bare role.");
    assertThat(bare.systemPrompt()).isEmpty();
    assertThat(bare.tools()).isNull();
  }

  @Test
  void load_noTable_isNoRoles() throws Exception {
    assertThat(load("")).isEmpty();
  }

  @Test
  void load_anUnknownKey_isRefusedNamingRoleAndKey() {
    assertThatThrownBy(() -> load("[agents.reviewer]\ncolour = \"red\"\n"))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("reviewer")
        .hasMessageContaining("colour")
        .hasMessageContaining("unknown key");
  }

  @Test
  void load_aBadRoleName_isRefused() {
    assertThatThrownBy(() -> load("[agents.\"-bad name\"]\ndescription = \"x\"\n"))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("a role's name is 1-64 letters");
  }

  @Test
  void load_badTools_areRefused() {
    for (String tools : List.of("[]", "\"remote_read\"", "[\"has space\"]", "[1]")) {
      assertThatThrownBy(() -> load("[agents.r]\ntools = " + tools + "\n"))
          .as(tools)
          .isInstanceOf(StartupException.class)
          .hasMessageContaining("tools");
    }
  }

  @Test
  void load_anEmptyOrNonStringText_isRefused() {
    for (String value : List.of("\"  \"", "3")) {
      assertThatThrownBy(() -> load("[agents.r]\ndescription = " + value + "\n"))
          .as(value)
          .isInstanceOf(StartupException.class)
          .hasMessageContaining("description")
          .hasMessageContaining("expected a non-empty string");
    }
  }

  @Test
  void load_moreRolesThanTheCap_isRefusedNamingTheFirstPastIt() {
    StringBuilder toml = new StringBuilder();
    for (int i = 0; i <= SubagentRoles.MAX_ROLES; i++) {
      toml.append("[agents.role").append(i).append("]\n");
    }
    assertThatThrownBy(() -> load(toml.toString()))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("role" + SubagentRoles.MAX_ROLES)
        .hasMessageContaining("at most " + SubagentRoles.MAX_ROLES + " roles");
  }
}
