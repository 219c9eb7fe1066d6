package dev.cortex.workflows.activity;

import dev.cortex.workflows.manifest.StepKind;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/** The activity of each step kind. */
public final class Activities {
  private final Map<StepKind, Activity> byKind;

  private Activities(Map<StepKind, Activity> byKind) {
    this.byKind = Collections.unmodifiableMap(new EnumMap<>(byKind));
  }

  /** Activities for the given implementations; each kind at most once. */
  public static Activities of(Activity... activities) {
    Map<StepKind, Activity> byKind = new EnumMap<>(StepKind.class);
    for (Activity activity : activities) {
      if (byKind.put(activity.kind(), activity) != null) {
        throw new IllegalArgumentException("two activities for kind " + activity.kind());
      }
    }
    return new Activities(byKind);
  }

  /** Every kind Cortex ships: shell, http, sql, mcp, transform, llm. */
  public static Activities standard() {
    return of(
        new ShellActivity(),
        new HttpActivity(),
        new SqlActivity(),
        new McpActivity(),
        new TransformActivity(),
        new LlmActivity());
  }

  private static final class Standard {
    static final Activities INSTANCE = standard();
  }

  /** The input schema of {@code kind} as shipped, for checks made while loading a manifest. */
  public static Map<String, Object> inputSchema(StepKind kind) {
    return Standard.INSTANCE.forKind(kind).inputSchema();
  }

  /** The activity that runs steps of {@code kind}. */
  public Activity forKind(StepKind kind) {
    Activity activity = byKind.get(Objects.requireNonNull(kind, "kind"));
    if (activity == null) {
      throw new IllegalStateException("no activity for kind " + kind.wireName());
    }
    return activity;
  }

  public Collection<Activity> all() {
    return byKind.values();
  }
}
