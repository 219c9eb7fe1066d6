package dev.cortex.server.schedules;

import dev.cortex.process.OutputListener;
import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.storage.Database;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Fires schedules when they are due, on one clock. The next due time of every active schedule is
 * kept in an ordered index, so the next fire is found at once however many schedules there are.
 * Each due time is claimed in the transaction that moves its schedule on ({@link ScheduleStore}),
 * so it fires once, across restarts and across schedulers sharing the database. A claimed fire runs
 * its pre-check, if any, then its {@link Launcher} starts the run; a fire claimed before a restart
 * and not started is started after it, with the same message key (so it is one message).
 */
public final class Scheduler implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Scheduler.class);
  private static final SecureRandom RANDOM = new SecureRandom();

  /** The longest the loop sleeps, so that a clock moved on (a test setting) is seen soon. */
  static final Duration MAX_SLEEP = Duration.ofSeconds(1);

  /** The most schedules of one server. */
  public static final int MAX_SCHEDULES = 10_000;

  /** The fires kept per schedule (older ones are removed). */
  static final int KEPT_FIRES = 200;

  /** The last bytes of a pre-check's output kept with its fire. */
  static final int CHECK_TAIL = 2_000;

  /** Where a fire's run went: its session, and its turn's execution when one took it at once. */
  public record Launched(String sessionId, String executionId) {}

  /**
   * What starts the run of a fire, and knows whether a run still goes. A refusal it throws as a
   * {@link dev.cortex.base.CodedException} is recorded with the fire in its own words; anything
   * else as a failure to see in the server's log.
   */
  public interface Launcher {
    /**
     * Starts the run of fire {@code fireId} of {@code schedule}, its message keyed by {@code key}
     * (the same key again, after a restart, is the same message); the session it runs in.
     */
    Launched launch(Schedule schedule, long fireId, String key) throws Exception;

    /** Whether a run still goes in {@code sessionId} (a turn runs in it). */
    boolean running(String sessionId);
  }

  private final Database database;
  private final Clock clock;
  private final Launcher launcher;
  private final Map<String, String> checkEnvironment;
  private final TreeMap<Instant, Set<String>> byDue = new TreeMap<>();
  private final Map<String, Instant> dueOf = new HashMap<>();
  private final Object index = new Object();
  private final ThreadPoolExecutor runs;
  private volatile boolean closed;
  private Thread loop;
  private final Instant born;
  private volatile boolean loaded;

  /** Held across each change of a schedule and its index entry, so the two agree. */
  private final Object changing = new Object();

  /**
   * @param checkEnvironment the environment of pre-checks
   */
  public Scheduler(
      Database database, Clock clock, Launcher launcher, Map<String, String> checkEnvironment) {
    this.database = Objects.requireNonNull(database, "database");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.launcher = Objects.requireNonNull(launcher, "launcher");
    this.checkEnvironment = Map.copyOf(checkEnvironment);
    this.born = clock.instant();
    this.runs =
        new ThreadPoolExecutor(
            4,
            4,
            30,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(1_000),
            r -> {
              Thread t = new Thread(r, "cortex-schedule-run");
              t.setDaemon(true);
              return t;
            },
            new ThreadPoolExecutor.AbortPolicy());
    this.runs.allowCoreThreadTimeOut(true);
  }

  /** Loads the schedules, starts what a restart left claimed, and starts the loop. */
  public synchronized void start() {
    if (!loaded) {
      load();
    }
    Instant now = clock.instant();
    for (ScheduleStore.Fire fire :
        database.read(c -> ScheduleStore.inState(c, ScheduleStore.CLAIMED))) {
      if (!fire.claimedAt().isBefore(born)) {
        continue;
      }
      Schedule schedule = database.read(c -> ScheduleStore.find(c, fire.scheduleId()));
      if (schedule == null) {
        continue;
      }
      if (schedule.paused() || !schedule.mayRun(fire.dueAt(), now)) {
        database.write(
            c -> {
              ScheduleStore.fireState(
                  c,
                  fire.id(),
                  ScheduleStore.MISSED,
                  "claimed before the server stopped, and too late to run now");
              return null;
            });
        continue;
      }
      log.info(
          "schedule {}: the fire due {} was claimed before a restart; it starts now",
          schedule.id(),
          fire.dueAt());
      submit(schedule, fire.id());
    }
    loop = new Thread(this::loop, "cortex-scheduler");
    loop.setDaemon(true);
    loop.start();
  }

  /** Reads every active schedule into the index. */
  public void load() {
    List<Schedule> all = database.read(c -> ScheduleStore.list(c, null));
    loaded = true;
    synchronized (index) {
      byDue.clear();
      dueOf.clear();
      for (Schedule s : all) {
        indexed(s);
      }
    }
  }

  private void indexed(Schedule s) {
    synchronized (index) {
      Instant old = dueOf.remove(s.id());
      if (old != null) {
        Set<String> ids = byDue.get(old);
        ids.remove(s.id());
        if (ids.isEmpty()) {
          byDue.remove(old);
        }
      }
      if (!s.paused() && s.nextDue() != null) {
        dueOf.put(s.id(), s.nextDue());
        byDue.computeIfAbsent(s.nextDue(), d -> new TreeSet<>()).add(s.id());
      }
    }
  }

  private void unindexed(String id) {
    synchronized (index) {
      Instant old = dueOf.remove(id);
      if (old != null) {
        Set<String> ids = byDue.get(old);
        ids.remove(id);
        if (ids.isEmpty()) {
          byDue.remove(old);
        }
      }
    }
  }

  /** The next due time of all active schedules, or null when none is due ever. */
  public Instant nextDue() {
    synchronized (index) {
      return byDue.isEmpty() ? null : byDue.firstKey();
    }
  }

  private void loop() {
    while (!closed) {
      try {
        tick();
      } catch (RuntimeException | Error e) {
        log.warn("the scheduler's round failed; it goes on", e);
      }
      Instant next = nextDue();
      long sleep = MAX_SLEEP.toMillis();
      if (next != null) {
        sleep = Math.max(1, Math.min(sleep, Duration.between(clock.instant(), next).toMillis()));
      }
      synchronized (this) {
        try {
          if (!closed) {
            wait(sleep);
          }
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }

  /** Wakes the loop (a schedule was added or changed). */
  private synchronized void nudge() {
    notifyAll();
  }

  /** Fires what is due now, and starts queued fires whose previous run ended. */
  public void tick() {
    Instant now = clock.instant();
    Set<String> retryLater = new java.util.HashSet<>();
    while (true) {
      Map.Entry<Instant, Set<String>> first;
      synchronized (index) {
        first = byDue.firstEntry();
        if (first == null || first.getKey().isAfter(now)) {
          break;
        }
        first = Map.entry(first.getKey(), Set.copyOf(first.getValue()));
      }
      Instant key = first.getKey();
      Set<String> ids = first.getValue();
      for (String id : ids) {
        try {
          due(id, key, now);
        } catch (RuntimeException e) {
          // One schedule that cannot be fired now never holds up the others: it is tried again
          // in a minute.
          log.warn("schedule {}: its fire due {} failed; tried again in a minute", id, key, e);
          retryLater.add(id);
        }
      }
      synchronized (index) {
        // A schedule whose row was gone or changed meanwhile leaves the index here.
        Set<String> left = byDue.get(key);
        if (left != null) {
          left.removeAll(ids);
          if (left.isEmpty()) {
            byDue.remove(key);
          }
        }
        ids.forEach(id -> dueOf.remove(id, key));
        Instant retry = now.plus(Duration.ofMinutes(1));
        for (String id : retryLater) {
          dueOf.put(id, retry);
          byDue.computeIfAbsent(retry, d -> new TreeSet<>()).add(id);
        }
        retryLater.clear();
      }
    }
    startQueued();
  }

  private void due(String id, Instant due, Instant now) {
    Schedule seen = database.read(c -> ScheduleStore.find(c, id));
    if (seen == null) {
      return;
    }
    boolean busy = busy(id);
    long[] claimed = {-1};
    Schedule moved;
    synchronized (changing) {
      moved =
          database.write(
              c -> {
                Schedule s = ScheduleStore.find(c, id);
                if (s == null || s.paused() || !due.equals(s.nextDue())) {
                  return s;
                }
                Instant next = s.timing().next(due);
                if (next != null && !next.isAfter(now)) {
                  next = s.timing().next(now);
                }
                ScheduleStore.state(c, id, false, next);
                if (!s.mayRun(due, now)) {
                  ScheduleStore.fire(
                      c,
                      id,
                      due,
                      now,
                      ScheduleStore.MISSED,
                      "the server was not running at the due time ("
                          + Duration.between(due, now).toMinutes()
                          + " min ago)");
                } else if (busy && s.overlap() == Schedule.Overlap.SKIP) {
                  ScheduleStore.fire(
                      c, id, due, now, ScheduleStore.SKIPPED, "the previous run still goes");
                } else if (busy && s.overlap() == Schedule.Overlap.QUEUE) {
                  boolean waiting = ScheduleStore.queued(c, id) > 0;
                  ScheduleStore.fire(
                      c,
                      id,
                      due,
                      now,
                      waiting ? ScheduleStore.SKIPPED : ScheduleStore.QUEUED,
                      waiting
                          ? "the previous run still goes and a fire waits already"
                          : "waits for the previous run");
                } else {
                  claimed[0] = ScheduleStore.fire(c, id, due, now, ScheduleStore.CLAIMED, null);
                }
                trim(c, id);
                return s.with(next, false);
              });
      if (moved != null) {
        indexed(moved);
      }
    }
    if (claimed[0] > 0) {
      submit(moved, claimed[0]);
    }
  }

  /**
   * Whether a run of schedule {@code id} still goes: a fire claimed or queued that has not started
   * yet (in its check, say), or the last started one whose session still runs.
   */
  private boolean busy(String id) {
    int waiting = database.read(c -> ScheduleStore.pending(c, id));
    if (waiting > 0) {
      return true;
    }
    ScheduleStore.Fire last = database.read(c -> ScheduleStore.lastStarted(c, id));
    return last != null && last.sessionId() != null && launcher.running(last.sessionId());
  }

  private static void trim(java.sql.Connection c, String id) throws java.sql.SQLException {
    dev.cortex.storage.Sql.update(
        c,
        "DELETE FROM schedule_fires WHERE schedule_id = ? AND state NOT IN ('claimed', 'queued')"
            + " AND id <> (SELECT COALESCE(MAX(id), -1) FROM schedule_fires WHERE schedule_id = ?"
            + " AND state = 'started') AND id <= (SELECT id FROM schedule_fires WHERE"
            + " schedule_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)",
        id,
        id,
        id,
        KEPT_FIRES);
  }

  private void startQueued() {
    List<ScheduleStore.Fire> queued =
        database.read(c -> ScheduleStore.inState(c, ScheduleStore.QUEUED));
    for (ScheduleStore.Fire fire : queued) {
      int claimed = database.read(c -> ScheduleStore.claimed(c, fire.scheduleId()));
      ScheduleStore.Fire last = database.read(c -> ScheduleStore.lastStarted(c, fire.scheduleId()));
      if (claimed > 0
          || (last != null && last.sessionId() != null && launcher.running(last.sessionId()))) {
        continue;
      }
      Schedule schedule = database.read(c -> ScheduleStore.find(c, fire.scheduleId()));
      if (schedule == null) {
        continue;
      }
      boolean taken =
          database.write(
              c ->
                  dev.cortex.storage.Sql.update(
                          c,
                          "UPDATE schedule_fires SET state = 'claimed', reason = NULL"
                              + " WHERE id = ? AND state = 'queued'",
                          fire.id())
                      > 0);
      if (taken) {
        submit(schedule, fire.id());
      }
    }
  }

  private void submit(Schedule schedule, long fireId) {
    if (closed) {
      return;
    }
    try {
      runs.execute(() -> run(schedule, fireId));
    } catch (java.util.concurrent.RejectedExecutionException e) {
      log.warn("schedule {}: too many runs wait already; this fire is skipped", schedule.id());
      database.write(
          c -> {
            ScheduleStore.fireState(
                c, fireId, ScheduleStore.SKIPPED, "too many runs of this server were waiting");
            return null;
          });
    }
  }

  /** Runs the pre-check, then starts the run; what became of it goes into the fire. */
  private void run(Schedule schedule, long fireId) {
    try {
      runChecked(schedule, fireId);
    } catch (RuntimeException e) {
      log.warn("schedule {}: the fire {} failed", schedule.id(), fireId, e);
      try {
        database.write(
            c -> {
              ScheduleStore.fireState(
                  c, fireId, ScheduleStore.FAILED, "the server could not run it (see its log)");
              return null;
            });
      } catch (RuntimeException again) {
        // left claimed: the next start of the server takes it up
      }
    }
  }

  private void runChecked(Schedule schedule, long fireId) {
    if (schedule.check() != null) {
      Checked checked = check(schedule);
      database.write(
          c -> {
            ScheduleStore.checked(c, fireId, checked.exit(), checked.tail());
            return null;
          });
      if (checked.exit() != 0) {
        database.write(
            c -> {
              ScheduleStore.fireState(c, fireId, ScheduleStore.SKIPPED, checked.reason());
              return null;
            });
        log.info(
            "schedule {}: the check exited {}; the run is skipped", schedule.id(), checked.exit());
        return;
      }
    }
    try {
      Launched launched =
          launcher.launch(schedule, fireId, "schedule:" + schedule.id() + ":" + fireId);
      Instant at = clock.instant();
      database.write(
          c -> {
            ScheduleStore.started(c, fireId, launched.sessionId(), launched.executionId(), at);
            return null;
          });
    } catch (Exception e) {
      // A refusal of the sessions says why in a sentence; anything else stays in the log.
      String reason =
          e instanceof dev.cortex.base.CodedException
              ? e.getMessage()
              : "the run could not start (see the server's log)";
      if (!(e instanceof dev.cortex.base.CodedException)) {
        log.warn("schedule {}: starting the run failed", schedule.id(), e);
      }
      log.warn("schedule {}: the run could not start: {}", schedule.id(), reason);
      database.write(
          c -> {
            ScheduleStore.fireState(c, fireId, ScheduleStore.FAILED, reason);
            return null;
          });
    }
  }

  record Checked(int exit, String tail, boolean timedOut, java.time.Duration timeout) {
    String reason() {
      return timedOut
          ? "the check timed out after " + timeout.toSeconds() + " s"
          : "the check exited " + exit;
    }
  }

  private Checked check(Schedule schedule) {
    Path directory =
        schedule.workingDirectory() != null
            ? schedule.workingDirectory()
            : Path.of(checkEnvironment.getOrDefault("HOME", System.getProperty("user.home")));
    java.time.Duration timeout = schedule.check().timeout();
    try {
      ProcessSpec spec =
          ProcessSpec.builder(
                  List.of("/bin/sh", "-c", schedule.check().command()), checkEnvironment)
              .directory(directory)
              .timeout(schedule.check().timeout())
              .capture(0, CHECK_TAIL)
              .build();
      ProcessResult result = Processes.start(spec, OutputListener.NONE).await();
      String tail =
          result.stdout().text(StandardCharsets.UTF_8)
              + result.stderr().text(StandardCharsets.UTF_8);
      tail = tail.length() <= CHECK_TAIL ? tail : tail.substring(tail.length() - CHECK_TAIL);
      return new Checked(result.exitCode(), tail, result.timedOut(), timeout);
    } catch (java.io.IOException | IllegalArgumentException e) {
      return new Checked(127, "the check could not start: " + e.getMessage(), false, timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Checked(130, "interrupted", false, timeout);
    }
  }

  /** A turn of {@code sessionId} ended: a fire that started it records its outcome. */
  public void turnEnded(String sessionId, String executionId, String outcome) {
    Instant at = clock.instant();
    database.write(c -> ScheduleStore.ended(c, sessionId, executionId, outcome, at));
  }

  // ---- management ----

  /** A new schedule; its id is made here, and its next due time from now. */
  public Schedule add(Schedule draft) {
    Instant now = clock.instant();
    Instant next = draft.timing().next(now);
    if (next == null) {
      throw new ScheduleException(
          ScheduleException.INVALID_ARGUMENT, "That time is past: the schedule would never fire.");
    }
    String id = "sch-" + HexFormat.of().formatHex(bytes(6));
    Schedule schedule =
        new Schedule(
            id,
            draft.project(),
            draft.prompt(),
            draft.timing(),
            draft.target(),
            draft.backend(),
            draft.model(),
            draft.overlap(),
            draft.missed(),
            draft.grace(),
            draft.check(),
            draft.workingDirectory(),
            draft.program(),
            draft.paused(),
            draft.paused() ? null : next,
            now);
    synchronized (changing) {
      database.write(
          c -> {
            // A once that fired counts no more.
            int count =
                dev.cortex.storage.Sql.one(
                    c,
                    "SELECT COUNT(*) FROM schedules WHERE next_due IS NOT NULL OR paused = 1",
                    rs -> rs.getInt(1));
            if (count >= MAX_SCHEDULES) {
              throw new ScheduleException(
                  ScheduleException.LIMIT,
                  "This server has " + MAX_SCHEDULES + " schedules, the most it keeps.");
            }
            ScheduleStore.insert(c, schedule);
            return null;
          });
      indexed(schedule);
    }
    nudge();
    return schedule;
  }

  public List<Schedule> list(String project) {
    return database.read(c -> ScheduleStore.list(c, project));
  }

  /** A schedule and its last {@code fires} fires, newest first. */
  public record Detail(Schedule schedule, List<ScheduleStore.Fire> fires) {}

  public Detail show(String id, int fires) {
    return database.read(
        c -> {
          Schedule s = ScheduleStore.find(c, id);
          if (s == null) {
            throw ScheduleException.notFound(id);
          }
          return new Detail(s, ScheduleStore.fires(c, id, fires));
        });
  }

  /** Pauses ({@code true}) or resumes a schedule; resumed, its next due time is from now. */
  public Schedule pause(String id, boolean pause) {
    Instant now = clock.instant();
    Schedule changed;
    synchronized (changing) {
      changed =
          database.write(
              c -> {
                Schedule s = ScheduleStore.find(c, id);
                if (s == null) {
                  throw ScheduleException.notFound(id);
                }
                if (!pause && !s.paused()) {
                  return s;
                }
                Instant next = pause ? null : s.timing().next(now);
                if (!pause && next == null) {
                  throw new ScheduleException(
                      ScheduleException.INVALID_ARGUMENT,
                      "Its time is past: it would never fire (run-now fires it, remove drops it).");
                }
                ScheduleStore.state(c, id, pause, next);
                return s.with(next, pause);
              });
      indexed(changed);
    }
    nudge();
    return changed;
  }

  public void remove(String id) {
    synchronized (changing) {
      boolean removed = database.write(c -> ScheduleStore.delete(c, id));
      if (!removed) {
        throw ScheduleException.notFound(id);
      }
      unindexed(id);
    }
  }

  /** Fires a schedule now, beside its timing (which it leaves as it is); the fire's id. */
  public long runNow(String id) {
    Instant now = clock.instant();
    Schedule[] found = new Schedule[1];
    long fire =
        database.write(
            c -> {
              Schedule s = ScheduleStore.find(c, id);
              if (s == null) {
                throw ScheduleException.notFound(id);
              }
              found[0] = s;
              // Its own key: never a due time's; two of one millisecond take the next.
              for (int ms = 0; ms < 1_000; ms++) {
                long made =
                    ScheduleStore.fire(
                        c, id, now.plusMillis(ms), now, ScheduleStore.CLAIMED, "run now", true);
                if (made > 0) {
                  return made;
                }
              }
              return -1L;
            });
    if (fire < 0) {
      throw new ScheduleException(
          ScheduleException.INVALID_ARGUMENT, "It fired many times this second; try again.");
    }
    submit(found[0], fire);
    return fire;
  }

  private static byte[] bytes(int n) {
    byte[] bytes = new byte[n];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  @Override
  public void close() {
    closed = true;
    nudge();
    Thread running = loop;
    if (running != null) {
      running.interrupt();
    }
    runs.shutdown();
    try {
      runs.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
