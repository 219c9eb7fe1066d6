package dev.cortex.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process groups of this JVM's runs: where {@code setsid} exists (Linux), each run is started
 * in a session and group of its own and ended as a whole with TERM, then KILL after a grace,
 * together (when its spec follows them) with its descendants that started sessions of their own
 * ({@link Lineage}); the live ones are ended when the JVM exits (a shutdown hook) and, through the
 * {@link Sentinel}, when it dies (the groups: a descendant of a session of its own is not on the
 * sentinel's list). Elsewhere a run's descendants still attached to it are ended with it.
 */
final class ProcessGroups {
  private static final Logger log = LoggerFactory.getLogger(ProcessGroups.class);

  /** How long TERM has before KILL follows. */
  static final Duration GRACE = Duration.ofSeconds(2);

  /** How long KILL may take to empty a group before Cortex gives up on it. */
  private static final Duration KILL_WAIT = Duration.ofSeconds(5);

  private static final Path SETSID = firstExisting("/usr/bin/setsid", "/bin/setsid");
  private static final Path SHELL = firstExisting("/bin/sh");
  private static final boolean ISOLATED = SETSID != null && ProcessTable.available();

  /** Whether runs' descendants are followed by ancestry here (where /proc can be read). */
  private static final boolean FOLLOWED = ProcessTable.available();

  private static final Set<RunningProcess> LIVE = ConcurrentHashMap.newKeySet();
  private static volatile boolean shuttingDown;
  private static Optional<Sentinel> sentinel;

  static {
    Runtime.getRuntime()
        .addShutdownHook(new Thread(ProcessGroups::endAll, "cortex-process-groups"));
  }

  private ProcessGroups() {}

  /** Whether each run gets a process group of its own here. */
  static boolean isolated() {
    return ISOLATED;
  }

  /** The command that starts {@code command} in a new session (and group) of its own. */
  static List<String> isolate(List<String> command) {
    List<String> wrapped = new ArrayList<>(command.size() + 2);
    wrapped.add(SETSID.toString());
    wrapped.add("--");
    wrapped.addAll(command);
    return wrapped;
  }

  static boolean shuttingDown() {
    return shuttingDown;
  }

  /** Adds a started run; one started while the JVM shuts down is ended at once. */
  static void register(RunningProcess process) {
    LIVE.add(process);
    if (FOLLOWED && process.followsDescendants()) {
      process.lineage().follow();
    }
    if (process.groupId() > 0) {
      sentinel().ifPresent(s -> s.add(process.groupId()));
    }
    if (shuttingDown) {
      process.terminate();
    }
  }

  static void unregister(RunningProcess process) {
    process.lineage().forget();
    if (LIVE.remove(process) && process.groupId() > 0) {
      sentinel().ifPresent(s -> s.remove(process.groupId()));
    }
  }

  private static synchronized Optional<Sentinel> sentinel() {
    if (sentinel == null) {
      sentinel = ISOLATED && SHELL != null ? Sentinel.start(SETSID, SHELL) : Optional.empty();
    }
    return sentinel;
  }

  /**
   * Ends group {@code group}, whose leader is {@code leader} (null once reaped), and the leader's
   * other descendants that {@code lineage} finds: TERM to every one, KILL to those left after
   * {@code grace}. Returns when they are all gone, or after the KILL wait.
   */
  static void end(long group, ProcessHandle leader, Lineage lineage, Duration grace) {
    // Looked up before any signal: once the leader is gone, its orphans are found by memory alone.
    Lineage.Strays strays = strays(group, leader, lineage);
    if (empty(group, leader, strays)) {
      return;
    }
    signal(group, leader, strays, "TERM");
    if (awaitEmpty(group, leader, strays, grace)) {
      return;
    }
    signal(group, leader, strays, "KILL");
    if (!awaitEmpty(group, leader, strays, KILL_WAIT)) {
      log.warn("process group {} or its descendants still run after KILL", group);
    }
  }

  /** The run's descendants outside its group, and the other groups they lead. */
  private static Lineage.Strays strays(long group, ProcessHandle leader, Lineage lineage) {
    if (!lineage.followed()) {
      return Lineage.Strays.NONE;
    }
    Lineage.Strays strays = lineage.strays(leader != null && leader.isAlive());
    if (strays.groups().contains(group)) {
      Set<Long> others = new HashSet<>(strays.groups());
      others.remove(group);
      return new Lineage.Strays(strays.processes(), Set.copyOf(others));
    }
    return strays;
  }

  private static boolean empty(long group, ProcessHandle leader, Lineage.Strays strays) {
    return empty(group, leader)
        && strays.groups().stream().allMatch(g -> empty(g, null))
        && strays.processes().stream().noneMatch(ProcessGroups::running);
  }

  /** Sends TERM or KILL to the run's group, the groups its strays lead, and the strays. */
  private static void signal(
      long group, ProcessHandle leader, Lineage.Strays strays, String signal) {
    signal(group, leader, signal);
    strays.groups().forEach(g -> signal(g, null, signal));
    for (ProcessHandle stray : strays.processes()) {
      if (signal.equals("KILL")) {
        stray.destroyForcibly();
      } else {
        stray.destroy();
      }
    }
  }

  /**
   * Ends the survivors of a group recorded earlier, perhaps by a process that has died since: the
   * whole group while its leader is alive with the recorded start, else the members of the session
   * it led that started after it. Returns how many processes were found.
   */
  static int endRecorded(long group, Instant leaderStart) {
    if (!ISOLATED || group <= 0) {
      return 0;
    }
    Optional<ProcessHandle> leader = ProcessHandle.of(group).filter(ProcessHandle::isAlive);
    boolean leaderIsOurs =
        leader.isPresent()
            && leader.get().info().startInstant().map(leaderStart::equals).orElse(false);
    List<ProcessHandle> members = new ArrayList<>();
    for (ProcessTable.Entry entry : ProcessTable.members(group)) {
      Optional<ProcessHandle> handle = ProcessHandle.of(entry.pid());
      Optional<Instant> start = handle.flatMap(h -> h.info().startInstant());
      boolean ours =
          leaderIsOurs
              || entry.session() == group && start.map(s -> !s.isBefore(leaderStart)).orElse(false);
      if (ours) {
        handle.ifPresent(members::add);
      }
    }
    if (members.isEmpty()) {
      return 0;
    }
    members.forEach(ProcessHandle::destroy);
    long deadline = System.nanoTime() + GRACE.toNanos();
    pause(() -> members.stream().noneMatch(ProcessGroups::running), deadline);
    members.stream().filter(ProcessGroups::running).forEach(ProcessHandle::destroyForcibly);
    pause(
        () -> members.stream().noneMatch(ProcessGroups::running),
        System.nanoTime() + KILL_WAIT.toNanos());
    return members.size();
  }

  private static boolean running(ProcessHandle handle) {
    return handle.isAlive() && ProcessTable.read(handle.pid()).map(e -> !e.zombie()).orElse(false);
  }

  /**
   * Whether the group has no live member (zombies do not count); without groups, whether the leader
   * and its descendants have all ended.
   */
  static boolean empty(long group, ProcessHandle leader) {
    if (leader != null && leader.isAlive()) {
      return false;
    }
    if (group <= 0) {
      return true;
    }
    Optional<Boolean> any = sentinel().flatMap(s -> s.probe(group));
    if (any.isPresent() && !any.get()) {
      return true;
    }
    return ProcessTable.members(group).isEmpty();
  }

  /** Sends TERM or KILL to the whole group; without groups, to the leader and its descendants. */
  private static void signal(long group, ProcessHandle leader, String signal) {
    List<ProcessHandle> targets = new ArrayList<>();
    if (leader != null && leader.isAlive()) {
      // Without groups these are all there is; with them, the leader may not have made its
      // session yet.
      targets.add(leader);
      if (group <= 0) {
        targets.addAll(leader.descendants().toList());
      }
    }
    if (group > 0 && !sentinel().map(s -> s.signal(group, signal)).orElse(false)) {
      for (ProcessTable.Entry member : ProcessTable.members(group)) {
        ProcessHandle.of(member.pid()).ifPresent(targets::add);
      }
    }
    boolean kill = signal.equals("KILL");
    for (ProcessHandle target : targets) {
      if (kill) {
        target.destroyForcibly();
      } else {
        target.destroy();
      }
    }
  }

  private static boolean awaitEmpty(
      long group, ProcessHandle leader, Lineage.Strays strays, Duration limit) {
    return pause(() -> empty(group, leader, strays), System.nanoTime() + limit.toNanos());
  }

  /**
   * Waits until {@code done} holds or {@code deadline} (System.nanoTime) passes, looking again
   * after 1, 2, 4 ... up to 50 ms. Returns whether it holds.
   */
  static boolean pause(java.util.function.BooleanSupplier done, long deadline) {
    long wait = 1;
    while (!done.getAsBoolean()) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      try {
        Thread.sleep(Math.min(wait, Math.max(1, left / 1_000_000)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return done.getAsBoolean();
      }
      wait = Math.min(50, wait * 2);
    }
    return true;
  }

  /**
   * The shutdown hook: no new runs; TERM to every live group and its runs' other descendants, KILL
   * after the grace.
   */
  private static void endAll() {
    shuttingDown = true;
    List<RunningProcess> live = new ArrayList<>(LIVE);
    if (live.isEmpty()) {
      return;
    }
    log.debug("ending {} process group(s) as the JVM exits", live.size());
    live.forEach(p -> p.markTerminated());
    Map<RunningProcess, Lineage.Strays> strays = new HashMap<>();
    live.forEach(p -> strays.put(p, strays(p.groupId(), p.leader(), p.lineage())));
    for (RunningProcess process : live) {
      signal(process.groupId(), process.leader(), strays.get(process), "TERM");
    }
    long deadline = System.nanoTime() + GRACE.toNanos();
    pause(
        () -> live.stream().allMatch(p -> empty(p.groupId(), p.leader(), strays.get(p))), deadline);
    for (RunningProcess process : live) {
      if (!empty(process.groupId(), process.leader(), strays.get(process))) {
        signal(process.groupId(), process.leader(), strays.get(process), "KILL");
      }
    }
  }

  private static Path firstExisting(String... candidates) {
    for (String candidate : candidates) {
      Path path = Path.of(candidate);
      if (Files.isExecutable(path)) {
        return path;
      }
    }
    return null;
  }
}
