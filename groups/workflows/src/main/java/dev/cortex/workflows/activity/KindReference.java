package dev.cortex.workflows.activity;

import dev.cortex.workflows.manifest.StepKind;
import java.util.List;
import java.util.Map;

/**
 * The reference of activity kinds in Markdown, generated from the same input schemas the loader and
 * the engine check against, so that the published reference cannot drift from the code.
 */
public final class KindReference {
  private KindReference() {}

  /** The reference of every kind in {@code activities}, in the order of {@link StepKind}. */
  public static String markdown(Activities activities) {
    StringBuilder out = new StringBuilder();
    out.append("# Activity kinds\n\n")
        .append("Generated from the code of this version; each step's `with` is checked against")
        .append(" its kind's inputs when the manifest loads (names) and again after its templates")
        .append(" are resolved (types and values).\n");
    for (StepKind kind : StepKind.values()) {
      Activity activity = activities.forKind(kind);
      out.append("\n## `").append(kind.wireName()).append("`\n\n");
      out.append(activity.description()).append("\n\n");
      out.append("Capability: ")
          .append(
              kind == StepKind.MCP
                  ? "`mcp:<server>` for the server it calls"
                  : kind.requiredCapability(null).map(c -> "`" + c + "`").orElse("none"))
          .append(".\n\n");
      out.append("| input | type | required | description |\n|---|---|---|---|\n");
      Map<String, Object> schema = activity.inputSchema();
      List<?> required = schema.get("required") instanceof List<?> list ? list : List.of();
      if (schema.get("properties") instanceof Map<?, ?> properties) {
        for (Map.Entry<?, ?> entry : properties.entrySet()) {
          Map<?, ?> property = (Map<?, ?>) entry.getValue();
          out.append("| `")
              .append(entry.getKey())
              .append("` | ")
              .append(type(property))
              .append(" | ")
              .append(required.contains(entry.getKey()) ? "yes" : "no")
              .append(" | ")
              .append(
                  cell(
                      String.valueOf(
                          property.containsKey("description") ? property.get("description") : "")))
              .append(" |\n");
        }
      }
      out.append("\nOutput: ").append(activity.outputDescription()).append("\n");
    }
    return out.toString();
  }

  private static String type(Map<?, ?> property) {
    Object type = property.get("type");
    String text;
    if (type == null) {
      text = "any";
    } else if (type instanceof List<?> types) {
      text = String.join(" or ", types.stream().map(String::valueOf).toList());
    } else {
      text = String.valueOf(type);
    }
    if (property.get("enum") instanceof List<?> values) {
      text += ": " + String.join(", ", values.stream().map(String::valueOf).toList());
    }
    if ("array".equals(type)
        && property.get("items") instanceof Map<?, ?> items
        && items.get("type") != null) {
      text +=
          " of "
              + (items.get("type") instanceof List<?> types
                  ? String.join(" or ", types.stream().map(String::valueOf).toList())
                  : items.get("type"));
    }
    return text;
  }

  private static String cell(String text) {
    return text.replace("|", "\\|").replace("\n", " ");
  }
}
