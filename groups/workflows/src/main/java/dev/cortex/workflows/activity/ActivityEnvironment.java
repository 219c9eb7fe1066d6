package dev.cortex.workflows.activity;

import dev.cortex.base.CortexHome;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The surroundings of every activity: the Cortex home (for secrets and settings), the environment
 * variables of the process (a copy, so tests can set their own), and the clock.
 */
public record ActivityEnvironment(CortexHome home, Map<String, String> variables, Clock clock) {
  public ActivityEnvironment {
    Objects.requireNonNull(home, "home");
    variables = Map.copyOf(Objects.requireNonNull(variables, "variables"));
    Objects.requireNonNull(clock, "clock");
  }

  /** The environment of this process. */
  public static ActivityEnvironment of(CortexHome home) {
    return new ActivityEnvironment(home, System.getenv(), Clock.systemUTC());
  }

  /** An environment variable, when it is set and not blank. */
  public Optional<String> variable(String name) {
    String value = variables.get(name);
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value);
  }
}
