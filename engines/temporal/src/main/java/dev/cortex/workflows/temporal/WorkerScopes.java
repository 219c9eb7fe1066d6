package dev.cortex.workflows.temporal;

import dev.cortex.workflows.activity.RunScope;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What each run keeps open on this worker (MCP clients of its declared servers), by run id. A run's
 * scope is closed when the run ends on this worker, or, since its other steps may run on other
 * workers, when none of its attempts has used it for {@link #IDLE}.
 */
final class WorkerScopes implements AutoCloseable {
  static final Duration IDLE = Duration.ofMinutes(10);

  private record Entry(RunScope scope, long lastUsed) {}

  private final Map<String, Entry> scopes = new ConcurrentHashMap<>();
  private final Clock clock;

  WorkerScopes(Clock clock) {
    this.clock = clock;
  }

  /** The scope of {@code runId}, opened on first use. */
  RunScope of(String runId) {
    long now = clock.millis();
    closeIdle(now);
    return scopes
        .compute(
            runId, (id, entry) -> new Entry(entry == null ? new RunScope() : entry.scope(), now))
        .scope();
  }

  /** Closes the scope of a run that ended. */
  void close(String runId) {
    Entry entry = scopes.remove(runId);
    if (entry != null) {
      entry.scope().close();
    }
  }

  private void closeIdle(long now) {
    List<String> idle = new ArrayList<>();
    scopes.forEach(
        (id, entry) -> {
          if (now - entry.lastUsed() > IDLE.toMillis()) {
            idle.add(id);
          }
        });
    idle.forEach(this::close);
  }

  @Override
  public void close() {
    new ArrayList<>(scopes.keySet()).forEach(this::close);
  }
}
