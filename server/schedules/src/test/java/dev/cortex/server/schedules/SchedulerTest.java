package dev.cortex.server.schedules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.protocol.session.Schedules;
import dev.cortex.storage.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler on a real SQLite file and a clock the test moves: fires once per due time, the
 * overlap and missed-run policies, pause and resume, the pre-check, a fire claimed before a
 * restart, and two schedulers sharing one database.
 */
class SchedulerTest {
  static final Instant T0 = Instant.parse("2026-06-01T12:00:00Z");

  @TempDir Path data;
  final MovableClock clock = new MovableClock(T0);
  final Recorder launcher = new Recorder();
  final List<AutoCloseable> closing = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable each : closing) {
      each.close();
    }
  }

  static final class MovableClock extends Clock {
    volatile Instant now;

    MovableClock(Instant now) {
      this.now = now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }
  }

  /** Records each launch; a session "runs" while the test says so. */
  static final class Recorder implements Scheduler.Launcher {
    final List<String> keys = new CopyOnWriteArrayList<>();
    final Set<String> busy = ConcurrentHashMap.newKeySet();
    volatile CountDownLatch launched = new CountDownLatch(1);

    @Override
    public Scheduler.Launched launch(Schedule schedule, long fireId, String key) {
      keys.add(key);
      launched.countDown();
      return new Scheduler.Launched("ses-" + schedule.id() + "-" + fireId, null);
    }

    @Override
    public boolean running(String sessionId) {
      return busy.contains(sessionId);
    }
  }

  Database database() {
    Database db = new Database(data, List.of(SchedulesSchema.area()), Clock.systemUTC());
    closing.add(db);
    return db;
  }

  Scheduler scheduler(Database db, Scheduler.Launcher launcher) {
    Scheduler scheduler = new Scheduler(db, clock, launcher, Map.of("PATH", "/usr/bin:/bin"));
    closing.add(0, scheduler);
    return scheduler;
  }

  static Schedules.Add every(String interval, String overlap, String missed, String check) {
    return new Schedules.Add(
        "proj",
        "check the logs",
        interval,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        overlap,
        missed,
        null,
        check,
        null,
        null,
        null,
        null);
  }

  Schedule add(Scheduler scheduler, Schedules.Add add) {
    return scheduler.add(Drafts.draft(add, clock.instant()));
  }

  /** Ticks and waits for the runs the tick started to be recorded. */
  void tick(Scheduler scheduler) throws Exception {
    scheduler.tick();
    settle(scheduler);
  }

  /** Waits until no fire is claimed without having started (runs are on a pool). */
  static void settle(Scheduler scheduler) throws Exception {
    for (int i = 0; i < 500; i++) {
      boolean pending =
          scheduler.list(null).stream()
              .flatMap(s -> scheduler.show(s.id(), 50).fires().stream())
              .anyMatch(f -> f.state().equals(ScheduleStore.CLAIMED));
      if (!pending) {
        return;
      }
      Thread.sleep(10);
    }
    throw new AssertionError("a claimed fire never started");
  }

  static List<String> states(Scheduler scheduler, Schedule s) {
    List<String> states =
        new java.util.ArrayList<>(
            scheduler.show(s.id(), 50).fires().stream().map(f -> f.state()).toList());
    java.util.Collections.reverse(states);
    return states;
  }

  @Test
  void aDueScheduleFiresOncePerDueTime() throws Exception {
    Scheduler scheduler = scheduler(database(), launcher);
    Schedule s = add(scheduler, every("10m", null, null, null));
    assertThat(scheduler.nextDue()).isEqualTo(T0.plus(Duration.ofMinutes(10)));
    tick(scheduler);
    assertThat(launcher.keys).isEmpty();

    clock.advance(Duration.ofMinutes(10));
    tick(scheduler);
    tick(scheduler);
    assertThat(launcher.keys).hasSize(1).allMatch(k -> k.startsWith("schedule:" + s.id() + ":"));
    assertThat(scheduler.nextDue()).isEqualTo(T0.plus(Duration.ofMinutes(20)));
    clock.advance(Duration.ofMinutes(10));
    tick(scheduler);
    assertThat(launcher.keys).hasSize(2).doesNotHaveDuplicates();
    assertThat(states(scheduler, s)).containsExactly("started", "started");
  }

  @Test
  void overlap_skip_queue_andParallel() throws Exception {
    Scheduler scheduler = scheduler(database(), launcher);
    Schedule skip = add(scheduler, every("10m", "skip", null, null));
    Schedule queue = add(scheduler, every("10m", "queue", null, null));
    Schedule parallel = add(scheduler, every("10m", "parallel", null, null));
    clock.advance(Duration.ofMinutes(10));
    tick(scheduler);
    assertThat(launcher.keys).hasSize(3);
    // Every first run still goes.
    for (Schedule s : List.of(skip, queue, parallel)) {
      launcher.busy.add(scheduler.show(s.id(), 1).fires().get(0).sessionId());
    }
    clock.advance(Duration.ofMinutes(10));
    tick(scheduler);
    clock.advance(Duration.ofMinutes(10));
    tick(scheduler);
    assertThat(states(scheduler, skip)).containsExactly("started", "skipped", "skipped");
    assertThat(states(scheduler, queue)).containsExactly("started", "queued", "skipped");
    assertThat(states(scheduler, parallel)).containsExactly("started", "started", "started");

    // The first run of the queue ends: the fire that waited starts.
    launcher.busy.clear();
    tick(scheduler);
    assertThat(states(scheduler, queue)).containsExactly("started", "started", "skipped");
  }

  @Test
  void aRunMissedWhileTheServerWasDown_runsOnceLateWithinGrace_elseIsSkipped() throws Exception {
    Database db = database();
    Scheduler first = scheduler(db, launcher);
    Schedule late = add(first, every("1h", null, "run-late", null));
    Schedule strict = add(first, every("1h", null, "skip", null));
    first.close();

    // Down for 1h30: both were due 30 minutes ago.
    clock.advance(Duration.ofMinutes(90));
    Scheduler second = scheduler(db, launcher);
    second.load();
    tick(second);
    assertThat(states(second, late)).containsExactly("started");
    assertThat(states(second, strict)).containsExactly("missed");
    assertThat(second.show(strict.id(), 1).fires().get(0).reason()).contains("not running");
    // Both move on to the next due time after now, not to every time missed.
    assertThat(second.show(late.id(), 0).schedule().nextDue())
        .isEqualTo(T0.plus(Duration.ofHours(2)));

    // Down for five hours, beyond the grace of an hour: skipped, once.
    clock.advance(Duration.ofHours(5));
    Scheduler third = scheduler(db, launcher);
    third.load();
    tick(third);
    assertThat(states(third, late)).containsExactly("started", "missed");
    assertThat(launcher.keys).hasSize(1);
  }

  @Test
  void pauseAndResume() throws Exception {
    Scheduler scheduler = scheduler(database(), launcher);
    Schedule s = add(scheduler, every("10m", null, null, null));
    scheduler.pause(s.id(), true);
    assertThat(scheduler.nextDue()).isNull();
    clock.advance(Duration.ofMinutes(30));
    tick(scheduler);
    assertThat(launcher.keys).isEmpty();
    Schedule resumed = scheduler.pause(s.id(), false);
    assertThat(resumed.nextDue()).isAfter(clock.instant());
    clock.advance(Duration.ofMinutes(10));
    tick(scheduler);
    assertThat(launcher.keys).hasSize(1);
  }

  @Test
  void theCheck_skipsARunByItsExitCode_recordingItsOutputTail() throws Exception {
    Path flag = data.resolve("go");
    Scheduler scheduler = scheduler(database(), launcher);
    Schedule s =
        add(scheduler, every("10m", null, null, "echo looking for " + flag + "; test -f " + flag));
    clock.advance(Duration.ofMinutes(10));
    tick(scheduler);
    assertThat(launcher.keys).isEmpty();
    ScheduleStore.Fire skipped = scheduler.show(s.id(), 1).fires().get(0);
    assertThat(skipped.state()).isEqualTo("skipped");
    assertThat(skipped.checkExit()).isEqualTo(1);
    assertThat(skipped.checkTail()).contains("looking for");

    Files.writeString(flag, "");
    clock.advance(Duration.ofMinutes(10));
    tick(scheduler);
    assertThat(launcher.keys).hasSize(1);
    assertThat(scheduler.show(s.id(), 1).fires().get(0).checkExit()).isZero();
  }

  @Test
  void aFireClaimedBeforeARestart_startsAfterIt_withTheSameKey() throws Exception {
    Database db = database();
    Scheduler before = scheduler(db, launcher);
    Schedule s = add(before, every("10m", null, null, null));
    before.close();
    long fire =
        db.write(
            c ->
                ScheduleStore.fire(
                    c, s.id(), T0.plusSeconds(600), T0, ScheduleStore.CLAIMED, null));
    // The server comes back a little after the due time.
    clock.advance(Duration.ofMinutes(11));
    Scheduler after = scheduler(db, launcher);
    after.start();
    assertThat(launcher.launched.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(launcher.keys).containsExactly("schedule:" + s.id() + ":" + fire);
  }

  @Test
  void aFireClaimedBeforeAnOutageLongerThanItsGrace_isRecordedMissed() throws Exception {
    Database db = database();
    Scheduler before = scheduler(db, launcher);
    Schedule s = add(before, every("10m", null, null, null));
    before.close();
    db.write(
        c -> ScheduleStore.fire(c, s.id(), T0.plusSeconds(600), T0, ScheduleStore.CLAIMED, null));
    clock.advance(Duration.ofHours(3));
    Scheduler after = scheduler(db, launcher);
    after.start();
    assertThat(states(after, s)).containsExactly("missed");
    assertThat(launcher.keys).isEmpty();
  }

  @Test
  void overlapSkip_countsAFireStillInItsCheck() throws Exception {
    Scheduler scheduler = scheduler(database(), launcher);
    Path release = data.resolve("release");
    Schedule s =
        add(
            scheduler,
            every("1m", "skip", null, "while [ ! -f " + release + " ]; do sleep 0.05; done"));
    clock.advance(Duration.ofMinutes(1));
    scheduler.tick();
    clock.advance(Duration.ofMinutes(1));
    scheduler.tick();
    Files.writeString(release, "");
    settle(scheduler);
    assertThat(states(scheduler, s)).containsExactly("started", "skipped");
    assertThat(launcher.keys).hasSize(1);
  }

  @Test
  void runNow_besideADueFireOfTheSameInstant_losesNeither() throws Exception {
    Scheduler scheduler = scheduler(database(), launcher);
    Schedule s = add(scheduler, every("10m", "parallel", null, null));
    clock.advance(Duration.ofMinutes(10));
    scheduler.runNow(s.id());
    tick(scheduler);
    assertThat(states(scheduler, s)).containsExactly("started", "started");
    assertThat(launcher.keys).hasSize(2).doesNotHaveDuplicates();
  }

  @Test
  void twoSchedulersOnOneDatabase_fireEachDueTimeOnce() throws Exception {
    Scheduler a = scheduler(database(), launcher);
    Scheduler b = scheduler(database(), launcher);
    for (int i = 0; i < 20; i++) {
      add(a, every("1m", "parallel", null, null));
    }
    b.load();
    for (int round = 0; round < 5; round++) {
      clock.advance(Duration.ofMinutes(1));
      Thread one = new Thread(a::tick);
      Thread two = new Thread(b::tick);
      one.start();
      two.start();
      one.join();
      two.join();
      settle(a);
    }
    assertThat(launcher.keys).hasSize(100).doesNotHaveDuplicates();
  }

  @Test
  void badRequests_writeNothing() {
    Scheduler scheduler = scheduler(database(), launcher);
    assertThatThrownBy(() -> add(scheduler, every("10m", "sometimes", null, null)))
        .hasMessageContaining("overlap is one of skip, queue, parallel");
    assertThatThrownBy(
            () ->
                add(
                    scheduler,
                    new Schedules.Add(
                        null,
                        "x",
                        null,
                        null,
                        null,
                        null,
                        "2020-01-01T00:00:00Z",
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null)))
        .hasMessageContaining("past");
    assertThatThrownBy(() -> scheduler.show("sch-000000000000", 1))
        .isInstanceOf(ScheduleException.class)
        .hasMessageContaining("No schedule");
    assertThat(scheduler.list(null)).isEmpty();
  }
}
