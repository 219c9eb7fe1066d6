package dev.cortex.process;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The descendants of one run's leader by ancestry, whatever group or session they are in: a
 * descendant that started a session of its own ({@code setsid}) has left the run's process group,
 * yet it is the run's all the same. While the run is live, one watch thread for the whole JVM looks
 * at the processes that appeared since its last look, every {@value #EVERY_MILLIS} ms, and the run
 * remembers each whose parent is its leader or one it remembers, with its start time; so it still
 * knows one whose parents have exited since (an orphan, adopted by init). When the run ends, {@link
 * #strays} names what of it still runs: the remembered ones, and what descends from them or from
 * the leader now.
 *
 * <p>A process whose every ancestor up to the leader exited before the watch looked (a double fork
 * within {@value #EVERY_MILLIS} ms) cannot be told from any other process, and is not followed.
 */
final class Lineage {
  private static final Logger log = LoggerFactory.getLogger(Lineage.class);

  /** How often the watch looks for new processes. */
  static final long EVERY_MILLIS = 200;

  private static final Set<Lineage> FOLLOWED = ConcurrentHashMap.newKeySet();
  private static final Map<Long, ProcessTable.Entry> SEEN = new HashMap<>();
  private static ScheduledExecutorService watch;

  private final long leader;
  private final Map<Long, Long> members = new ConcurrentHashMap<>();
  private volatile boolean seeded;
  private volatile boolean followed;

  Lineage(long leader) {
    this.leader = leader;
  }

  /** Starts following this run's descendants. */
  void follow() {
    followed = true;
    FOLLOWED.add(this);
    startWatch();
  }

  /** Whether this run's descendants are followed (its spec asks for it, and /proc exists). */
  boolean followed() {
    return followed;
  }

  /** Stops following: the run has ended. */
  void forget() {
    FOLLOWED.remove(this);
  }

  /** The pids remembered so far (for tests). */
  Set<Long> members() {
    return Set.copyOf(members.keySet());
  }

  /**
   * What of a run still runs outside its leader.
   *
   * @param processes the descendants found (a zombie's handle is left out)
   * @param groups the process groups those descendants lead, other than the run's own: a group
   *     holds what its leader started after the look, too
   */
  record Strays(List<ProcessHandle> processes, Set<Long> groups) {
    static final Strays NONE = new Strays(List.of(), Set.of());
  }

  /**
   * What of the run still runs outside the leader, looked up now: the remembered descendants that
   * still run (with the start they were seen with), every process whose parent links lead to one of
   * them or to the leader, and the groups they lead.
   */
  Strays strays(boolean leaderRuns) {
    if (!leaderRuns && members.isEmpty()) {
      // The leader's children were adopted by init when it exited: no parent link leads here.
      return Strays.NONE;
    }
    Map<Long, ProcessTable.Entry> table = ProcessTable.all();
    Set<Long> lineage = new HashSet<>();
    lineage.add(leader);
    members.forEach(
        (pid, start) -> {
          ProcessTable.Entry entry = table.get(pid);
          if (entry != null && entry.startTicks() == start) {
            lineage.add(pid);
          }
        });
    closeOver(table.values(), lineage);
    List<ProcessHandle> processes = new ArrayList<>();
    Set<Long> groups = new HashSet<>();
    for (long pid : lineage) {
      ProcessTable.Entry entry = table.get(pid);
      if (pid == leader || entry == null || entry.zombie()) {
        continue;
      }
      ProcessHandle.of(pid).ifPresent(processes::add);
      if (entry.group() == pid) {
        groups.add(pid);
      }
    }
    return new Strays(List.copyOf(processes), Set.copyOf(groups));
  }

  /** Adds to {@code lineage} every entry whose parent is in it, until nothing more is added. */
  private static void closeOver(Collection<ProcessTable.Entry> entries, Set<Long> lineage) {
    boolean grew = true;
    while (grew) {
      grew = false;
      for (ProcessTable.Entry entry : entries) {
        if (lineage.contains(entry.parent()) && lineage.add(entry.pid())) {
          grew = true;
        }
      }
    }
  }

  /**
   * Remembers the descendants among {@code appeared}; on its first look, among everything seen (the
   * leader may have started children before this run was followed).
   */
  private void look(Collection<ProcessTable.Entry> appeared, Collection<ProcessTable.Entry> all) {
    Collection<ProcessTable.Entry> candidates = seeded ? appeared : all;
    seeded = true;
    boolean grew = true;
    while (grew) {
      grew = false;
      for (ProcessTable.Entry entry : candidates) {
        if (entry.pid() != leader
            && !members.containsKey(entry.pid())
            && (entry.parent() == leader || members.containsKey(entry.parent()))) {
          members.put(entry.pid(), entry.startTicks());
          grew = true;
        }
      }
    }
  }

  private static synchronized void startWatch() {
    if (watch != null) {
      return;
    }
    watch =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "cortex-process-lineage");
              thread.setDaemon(true);
              return thread;
            });
    watch.scheduleWithFixedDelay(Lineage::tick, 0, EVERY_MILLIS, TimeUnit.MILLISECONDS);
  }

  /**
   * One look: reads the processes that appeared since the last one (the others' parents were read
   * when they appeared), and lets every followed run remember its own.
   */
  private static void tick() {
    try {
      if (FOLLOWED.isEmpty()) {
        SEEN.clear();
        return;
      }
      Set<Long> now = ProcessTable.pids();
      SEEN.keySet().retainAll(now);
      List<ProcessTable.Entry> appeared = new ArrayList<>();
      for (long pid : now) {
        if (!SEEN.containsKey(pid)) {
          Optional<ProcessTable.Entry> entry = ProcessTable.read(pid);
          entry.ifPresent(
              e -> {
                SEEN.put(pid, e);
                appeared.add(e);
              });
        }
      }
      for (Lineage lineage : FOLLOWED) {
        lineage.look(appeared, SEEN.values());
      }
    } catch (RuntimeException e) {
      log.debug("looking for the descendants of runs failed", e);
    }
  }
}
