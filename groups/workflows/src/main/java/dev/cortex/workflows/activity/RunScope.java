package dev.cortex.workflows.activity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What one run keeps open across its steps (MCP clients to declared servers, say), closed when the
 * run ends, in reverse order of opening. Safe for the concurrent attempts of a {@code for_each}.
 */
public final class RunScope implements AutoCloseable {
  private final Map<String, AutoCloseable> resources = new LinkedHashMap<>();
  private boolean closed;

  /** The resource kept under {@code key}, opened by {@code opener} on first use. */
  public synchronized <T extends AutoCloseable> T resource(
      String key, Class<T> type, Supplier<T> opener) {
    if (closed) {
      throw new IllegalStateException("the run has ended");
    }
    AutoCloseable existing = resources.get(key);
    if (existing != null) {
      return type.cast(existing);
    }
    T opened = opener.get();
    resources.put(key, opened);
    return opened;
  }

  /** Forgets (and closes) the resource under {@code key}, e.g. after it broke. */
  public void discard(String key) {
    AutoCloseable removed;
    synchronized (this) {
      removed = resources.remove(key);
    }
    closeQuietly(removed);
  }

  @Override
  public void close() {
    List<AutoCloseable> open;
    synchronized (this) {
      closed = true;
      open = new ArrayList<>(resources.values());
      resources.clear();
    }
    for (int i = open.size() - 1; i >= 0; i--) {
      closeQuietly(open.get(i));
    }
  }

  private static void closeQuietly(AutoCloseable resource) {
    if (resource == null) {
      return;
    }
    try {
      resource.close();
    } catch (Exception e) {
      // A resource that fails to close has nothing more to give the run.
    }
  }
}
