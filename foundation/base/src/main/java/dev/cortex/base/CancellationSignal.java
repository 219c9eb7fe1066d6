package dev.cortex.base;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.LoggerFactory;

/** A {@link Cancellation} that its owner trips: the transport that saw the cancel. */
public final class CancellationSignal implements Cancellation {
  private final Map<Object, Runnable> actions = new LinkedHashMap<>();
  private boolean cancelled;

  @Override
  public synchronized boolean isCancelled() {
    return cancelled;
  }

  @Override
  public Registration onCancel(Runnable action) {
    Object key = new Object();
    synchronized (this) {
      if (!cancelled) {
        actions.put(key, action);
        return () -> {
          synchronized (this) {
            actions.remove(key);
          }
        };
      }
    }
    run(action);
    return () -> {};
  }

  /** Cancels: every registered action runs once, on this thread. Later calls do nothing. */
  public void cancel() {
    List<Runnable> toRun;
    synchronized (this) {
      if (cancelled) {
        return;
      }
      cancelled = true;
      toRun = new ArrayList<>(actions.values());
      actions.clear();
    }
    toRun.forEach(CancellationSignal::run);
  }

  private static void run(Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      LoggerFactory.getLogger(CancellationSignal.class).warn("a cancellation action failed", e);
    }
  }
}
