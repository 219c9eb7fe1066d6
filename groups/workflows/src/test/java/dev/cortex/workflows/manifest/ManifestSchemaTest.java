package dev.cortex.workflows.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Json;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

class ManifestSchemaTest {
  @Test
  void schema_isDraft202012AndSerialises() {
    JsonNode schema = Json.tree(ManifestSchema.schema());

    assertThat(schema.path("$schema").asString())
        .isEqualTo("https://json-schema.org/draft/2020-12/schema");
    assertThat(schema.path("required").toString()).isEqualTo("[\"name\",\"version\",\"steps\"]");
    assertThat(schema.at("/properties/steps/items/properties/kind/enum").toString())
        .isEqualTo("[\"shell\",\"http\",\"sql\",\"mcp\",\"transform\",\"llm\"]");
  }

  @Test
  void schema_everyObjectIsClosed() {
    assertClosed(Json.tree(ManifestSchema.schema()), "");
  }

  private static void assertClosed(JsonNode node, String where) {
    if (!node.isObject()) {
      return;
    }
    if (node.has("properties")) {
      assertThat(node.path("additionalProperties").isBoolean())
          .as("closed object at %s", where)
          .isTrue();
    }
    for (Map.Entry<String, JsonNode> entry : node.properties()) {
      if (!entry.getKey().equals("default")) {
        assertClosed(entry.getValue(), where + "/" + entry.getKey());
      }
    }
  }
}
