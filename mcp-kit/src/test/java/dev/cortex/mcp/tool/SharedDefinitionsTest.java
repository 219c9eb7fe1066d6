package dev.cortex.mcp.tool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SharedDefinitionsTest {
  static Map<String, Object> cost(String description) {
    return Schema.object()
        .description(description)
        .required("usd", Schema.number("US dollars of the priced model calls."))
        .required("input_tokens", Schema.integer("Tokens sent to models."))
        .build();
  }

  static final Map<String, Object> SCHEMA =
      Schema.object()
          .required("run", cost("What the run cost."))
          .required(
              "steps",
              Schema.array(
                  "The steps.",
                  Schema.object()
                      .required("cost", cost("What the step cost."))
                      .required("output", Schema.any("What it returned."))
                      .build(),
                  0,
                  0,
                  false))
          .required("default", Schema.nullable(Schema.any("A default.")))
          .build();

  @Test
  void share_repeatedPart_isDefinedOnce_andReferencedWithItsOwnDescription() {
    Map<String, Object> shared = SharedDefinitions.share(SCHEMA);

    String text = Json.write(shared);
    assertThat(text).containsOnlyOnce("US dollars of the priced model calls.");
    assertThat(text).contains("\"$ref\":\"#/$defs/run\"");
    assertThat(text).contains("What the run cost.").contains("What the step cost.");
    assertThat(text.length()).isLessThan(Json.write(SCHEMA).length());
  }

  @Test
  void share_acceptsAndRefusesWhatTheInlineSchemaDoes() {
    SchemaCheck inline = new SchemaCheck(SCHEMA, "result");
    SchemaCheck shared = new SchemaCheck(SharedDefinitions.share(SCHEMA), "result");
    for (String value :
        new String[] {
          "{\"run\":{\"usd\":1,\"input_tokens\":2},\"steps\":[],\"default\":null}",
          "{\"run\":{\"usd\":1,\"input_tokens\":2},\"steps\":[{\"cost\":{\"usd\":0,"
              + "\"input_tokens\":0},\"output\":[1]}],\"default\":3}",
          "{\"run\":{\"usd\":\"x\",\"input_tokens\":2},\"steps\":[],\"default\":null}",
          "{\"run\":{\"usd\":1,\"input_tokens\":2},\"steps\":[{\"cost\":{\"usd\":0}}],"
              + "\"default\":1}",
          "{\"run\":{\"usd\":1,\"input_tokens\":2,\"more\":1},\"steps\":[],\"default\":1}"
        }) {
      var node = Json.mapper().readTree(value);
      assertThat(shared.problems(node).isEmpty())
          .as(value)
          .isEqualTo(inline.problems(node).isEmpty());
    }
  }

  @Test
  void share_nothingRepeated_returnsTheSchemaItself() {
    Map<String, Object> single = cost("Once.");

    assertThat(SharedDefinitions.share(single)).isSameAs(single);
  }
}
