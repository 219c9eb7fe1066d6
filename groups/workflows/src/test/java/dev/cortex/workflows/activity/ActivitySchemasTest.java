package dev.cortex.workflows.activity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.workflows.manifest.StepKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ActivitySchemasTest {
  private final Activities activities =
      Activities.of(
          new ShellActivity(), new HttpActivity(), new SqlActivity(), new TransformActivity());

  @Test
  void inputSchema_everyKind_isAClosedObjectWithDescribedProperties() {
    for (Activity activity : activities.all()) {
      Map<String, Object> schema = activity.inputSchema();

      assertThat(schema)
          .containsEntry("type", "object")
          .containsEntry("additionalProperties", false);
      @SuppressWarnings("unchecked")
      Map<String, Map<String, Object>> properties =
          (Map<String, Map<String, Object>>) schema.get("properties");
      assertThat(properties).isNotEmpty();
      properties.forEach(
          (name, property) ->
              assertThat(property.get("description"))
                  .as("%s.%s", activity.kind().wireName(), name)
                  .isInstanceOf(String.class));
      assertThat(activity.description()).endsWith(".");
    }
  }

  @Test
  void activities_coverTheirKinds() {
    assertThat(activities.forKind(StepKind.SHELL)).isInstanceOf(ShellActivity.class);
    assertThat(activities.forKind(StepKind.HTTP)).isInstanceOf(HttpActivity.class);
    assertThat(activities.forKind(StepKind.SQL)).isInstanceOf(SqlActivity.class);
    assertThat(activities.forKind(StepKind.TRANSFORM)).isInstanceOf(TransformActivity.class);
  }
}
