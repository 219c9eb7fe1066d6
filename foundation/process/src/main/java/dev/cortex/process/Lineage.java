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
 * knows one whose parents have exited since (an orphan, adopted by init). A process is told by its
 * pid and its start: one that ended is forgotten, and a process that took over a remembered pid is
 * not the run's, nor are its children. When the run ends, {@link #strays} names what of it still
 * runs: the remembered ones, and what descends from them or from the leader now.
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
    List<ProcessHandle> processes = new ArrayList<>();
    Set<Long> groups = new HashSet<>();
    for (long pid : lineage(leaderRuns, table)) {
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

  /**
   * The pids of the run in {@code table}: the leader while it runs (once it has ended, its pid may
   * be another process's), the remembered descendants that still run with the start they were seen
   * with, and every process whose parent links lead to one of them.
   */
  Set<Long> lineage(boolean leaderRuns, Map<Long, ProcessTable.Entry> table) {
    Set<Long> lineage = new HashSet<>();
    if (leaderRuns) {
      lineage.add(leader);
    }
    members.forEach(
        (pid, start) -> {
          ProcessTable.Entry entry = table.get(pid);
          if (entry != null && entry.startTicks() == start) {
            lineage.add(pid);
          }
        });
    closeOver(table.values(), lineage);
    return lineage;
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
   * Forgets the members that ended, then remembers the descendants among {@code appeared}; on its
   * first look, among everything seen (the leader may have started children before this run was
   * followed). A process is a descendant when its parent is the leader, or a member that still is
   * the process it was: the same pid with the same start.
   *
   * @param seen every process seen, by pid, as last read
   */
  void look(Collection<ProcessTable.Entry> appeared, Map<Long, ProcessTable.Entry> seen) {
    members.entrySet().removeIf(member -> !same(seen.get(member.getKey()), member.getValue()));
    Collection<ProcessTable.Entry> candidates = seeded ? appeared : seen.values();
    seeded = true;
    boolean grew = true;
    while (grew) {
      grew = false;
      for (ProcessTable.Entry entry : candidates) {
        if (entry.pid() != leader
            && !members.containsKey(entry.pid())
            && (entry.parent() == leader || isMember(seen.get(entry.parent())))) {
          members.put(entry.pid(), entry.startTicks());
          grew = true;
        }
      }
    }
  }

  private boolean isMember(ProcessTable.Entry entry) {
    return entry != null && same(entry, members.get(entry.pid()));
  }

  private static boolean same(ProcessTable.Entry entry, Long start) {
    return entry != null && start != null && entry.startTicks() == start;
  }

  /** The pids some followed run remembers. */
  private static Set<Long> remembered() {
    Set<Long> pids = new HashSet<>();
    for (Lineage lineage : FOLLOWED) {
      pids.addAll(lineage.members.keySet());
    }
    return pids;
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
   * when they appeared) and the remembered ones again, and lets every followed run remember its
   * own.
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
      // A remembered pid may have been taken over since it was read: read those again.
      for (long pid : remembered()) {
        ProcessTable.Entry was = SEEN.get(pid);
        Optional<ProcessTable.Entry> is = was == null ? Optional.empty() : ProcessTable.read(pid);
        if (is.isEmpty()) {
          SEEN.remove(pid);
        } else if (is.get().startTicks() != was.startTicks()) {
          SEEN.put(pid, is.get());
          appeared.add(is.get());
        }
      }
      for (Lineage lineage : FOLLOWED) {
        lineage.look(appeared, SEEN);
      }
    } catch (RuntimeException e) {
      log.debug("looking for the descendants of runs failed", e);
    }
  }
}
