package dev.cortex.protocol.webhook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.protocol.session.Sessions;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubagentsTest {
  private static final Subagents.Item ITEM =
      new Subagents.Item("look", "find it", "explore", null, null);

  private static Subagents.Run single(String description, String prompt, String role) {
    return new Subagents.Run("ses-1", description, prompt, role, null, null, null, null, null);
  }

  @Test
  void run_singleFields_isTheSingleMode_withOneItem() {
    Subagents.Run run = single("look", "find it", "explore");

    assertThat(run.mode()).isEqualTo(Subagents.Mode.SINGLE);
    assertThat(run.items()).containsExactly(ITEM);
    assertThat(run.background()).isFalse();
  }

  @Test
  void run_noMode_isRefusedWithWhatToSay() {
    assertThatThrownBy(() -> single(null, null, null))
        .isInstanceOf(Sessions.BadRequest.class)
        .hasMessageContaining("Say what to delegate");
  }

  @Test
  void run_severalModes_isRefused() {
    assertThatThrownBy(
            () ->
                new Subagents.Run(
                    "ses-1", null, null, null, List.of(ITEM), List.of(ITEM), null, null, null))
        .isInstanceOf(Sessions.BadRequest.class)
        .hasMessageContaining("one mode per call");
    assertThatThrownBy(
            () ->
                new Subagents.Run("ses-1", "d", null, null, null, List.of(ITEM), null, null, null))
        .hasMessageContaining("one mode per call");
  }

  @Test
  void run_partOfTheSingleFields_isRefusedByTheItemRules() {
    assertThatThrownBy(() -> single("look", null, "explore"))
        .isInstanceOf(Sessions.BadRequest.class)
        .hasMessageContaining("prompt");
    assertThatThrownBy(() -> single("look", "p", "not a role!"))
        .hasMessageContaining("subagent_type");
  }

  @Test
  void run_itemsOutOfBounds_areRefused() {
    assertThatThrownBy(
            () -> new Subagents.Run("ses-1", null, null, null, List.of(), null, null, null, null))
        .hasMessageContaining("parallel has 1 to 8 items");
    List<Subagents.Item> nine = new ArrayList<>(Collections.nCopies(9, ITEM));
    assertThatThrownBy(
            () -> new Subagents.Run("ses-1", null, null, null, null, nine, null, null, null))
        .hasMessageContaining("chain has 1 to 8 items");
    List<Subagents.Item> withNull = new ArrayList<>();
    withNull.add(null);
    assertThatThrownBy(
            () -> new Subagents.Run("ses-1", null, null, null, withNull, null, null, null, null))
        .hasMessageContaining("empty item");
  }

  @Test
  void item_badFields_areRefused() {
    assertThatThrownBy(() -> new Subagents.Item(" ", "p", "explore", null, null))
        .hasMessageContaining("description");
    assertThatThrownBy(() -> new Subagents.Item("d".repeat(201), "p", "explore", null, null))
        .hasMessageContaining("200");
    assertThatThrownBy(() -> new Subagents.Item("d", "p", "explore", "bad model!", null))
        .hasMessageContaining("model");
    assertThatThrownBy(() -> new Subagents.Item("d", "p", "explore", null, "bad backend"))
        .hasMessageContaining("backend");
  }

  @Test
  void stop_andRef_needAnAgentId() {
    assertThatThrownBy(() -> new Subagents.Stop("ses-1", "sa-1")).hasMessageContaining("agent_id");
    assertThatThrownBy(() -> new Subagents.Ref(null)).hasMessageContaining("agent_id");
    assertThat(new Subagents.Ref("sa-0123456789ab").agentId()).isEqualTo("sa-0123456789ab");
  }

  @Test
  void listing_limitOutOfBounds_isRefused() {
    assertThatThrownBy(() -> new Subagents.Listing(null, 0)).hasMessageContaining("limit");
    assertThat(new Subagents.Listing(null, null).limitOrDefault()).isEqualTo(50);
  }
}
