package dev.cortex.server.sessions.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A session's thinking level reaches Claude Code as its own thinking budget. */
class ClaudeThinkingTest {
  static ClaudeSpawn spawn(Map<String, String> env) {
    TurnRequest request =
        new TurnRequest(
            "ses-1",
            List.of(new TurnRequest.Message("1", "hello")),
            null,
            null,
            Path.of("/work"),
            env,
            Path.of("/srv/cortex/config/mcp-config.json"),
            false,
            null);
    return ClaudeSpawn.of(request, "/opt/claude/bin/claude", Path.of("/srv/cortex/data/claude"));
  }

  @Test
  void of_eachLevel_setsMaxThinkingTokens() {
    assertThat(spawn(Map.of("CORTEX_THINKING", "off")).environment())
        .containsEntry("MAX_THINKING_TOKENS", "0");
    assertThat(spawn(Map.of("CORTEX_THINKING", "low")).environment())
        .containsEntry("MAX_THINKING_TOKENS", "2048");
    assertThat(spawn(Map.of("CORTEX_THINKING", "medium")).environment())
        .containsEntry("MAX_THINKING_TOKENS", "8192");
    assertThat(spawn(Map.of("CORTEX_THINKING", "high")).environment())
        .containsEntry("MAX_THINKING_TOKENS", "24576");
  }

  @Test
  void of_noLevel_leavesClaudeCodesOwnBudget() {
    assertThat(spawn(Map.of()).environment()).doesNotContainKey("MAX_THINKING_TOKENS");
  }

  @Test
  void of_aBudgetTheServerInherited_isKeptWhenTheSessionSetsNone() {
    assertThat(spawn(Map.of("MAX_THINKING_TOKENS", "4096")).environment())
        .containsEntry("MAX_THINKING_TOKENS", "4096");
  }
}
