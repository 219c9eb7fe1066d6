package dev.cortex.evidence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Json;
import org.junit.jupiter.api.Test;

class WireNameTest {
  @Test
  void json_spellsEveryWireEnumInLowerCase() {
    assertThat(Json.write(Relation.SUPPORTS)).isEqualTo("\"supports\"");
    assertThat(Json.write(Origin.TOOL_OUTPUT_RECORDED)).isEqualTo("\"tool_output_recorded\"");
    assertThat(Json.write(ReviewModel.CriterionOutcome.MISSING_EVIDENCE))
        .isEqualTo("\"missing_evidence\"");
    assertThat(Json.write(ReviewModel.DecisionStatus.PASS_WITH_CAVEATS))
        .isEqualTo("\"pass_with_caveats\"");
    assertThat(Json.write(Policy.PROVISIONAL_1)).isEqualTo("\"provisional-1\"");
  }

  @Test
  void parse_unknownSpelling_namesTheAcceptedOnes() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> WireName.parse(Relation.class, "maybe"))
        .hasMessageContaining("supports, contradicts, neutral");
  }
}
