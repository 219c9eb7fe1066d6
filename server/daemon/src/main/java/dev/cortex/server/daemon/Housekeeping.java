package dev.cortex.server.daemon;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's housekeeping, run every second: each step on its own, so that one that fails does
 * not hold up the others. A failing step is logged once with its cause (again only when the cause
 * changes, not every second) and once more when it works again.
 */
final class Housekeeping implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(Housekeeping.class);

  /** One step, named for the log. */
  record Step(String name, Runnable work) {
    Step {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(work, "work");
    }
  }

  private final List<Step> steps;
  private final Map<String, String> failing = new HashMap<>();

  Housekeeping(List<Step> steps) {
    this.steps = List.copyOf(steps);
  }

  @Override
  public synchronized void run() {
    for (Step step : steps) {
      try {
        step.work().run();
        if (failing.remove(step.name()) != null) {
          log.info("housekeeping: {} works again", step.name());
        }
      } catch (RuntimeException e) {
        String cause = String.valueOf(e);
        if (cause.equals(failing.put(step.name(), cause))) {
          log.debug("housekeeping: {} still fails: {}", step.name(), cause);
        } else {
          log.warn("housekeeping: {} failed; it is tried again every second", step.name(), e);
        }
      }
    }
  }
}
