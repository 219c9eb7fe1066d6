package dev.cortex.bench;

import dev.cortex.protocol.session.Schedules;
import dev.cortex.server.schedules.Drafts;
import dev.cortex.server.schedules.Schedule;
import dev.cortex.server.schedules.Scheduler;
import dev.cortex.server.schedules.SchedulesSchema;
import dev.cortex.storage.Database;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Measures the scheduler in-process on a real SQLite file: 10,000 schedules (intervals, daily and
 * weekly times in several zones, cron expressions, once) added and loaded; finding the next due
 * among them (against a scan of all their due times, the reference); a round of the loop when
 * nothing is due; and a fire's latency from its due time to its launcher's call (the claim, the
 * pool's hand-off), against a JDK scheduled executor's latency to the same due times, in one run.
 * From the launcher's call to the turn's start is what {@code tools/bench/wake} measures.
 */
public final class ScheduleBench {
  static final String USAGE =
      "usage: tools/bench/schedules [--schedules N] [--lookups N] [--fires N]\n"
          + "  --schedules N  schedules loaded (default 10000)\n"
          + "  --lookups N    next-due lookups and idle rounds measured (default 10000)\n"
          + "  --fires N      fires measured (default 100)";

  private ScheduleBench() {}

  public static void main(String[] args) throws Exception {
    int schedules = 10_000;
    int lookups = 10_000;
    int fires = 100;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--schedules" -> schedules = Integer.parseInt(args[++i]);
        case "--lookups" -> lookups = Integer.parseInt(args[++i]);
        case "--fires" -> fires = Integer.parseInt(args[++i]);
        default -> {
          System.err.println(USAGE);
          System.exit(2);
        }
      }
    }
    Path data = Files.createTempDirectory("cortex-schedule-bench");
    try (Database db = new Database(data, List.of(SchedulesSchema.area()), Clock.systemUTC())) {
      System.out.println(run(db, schedules, lookups, fires));
    }
    System.exit(0);
  }

  static Schedules.Add add(int i) {
    String[] zones = {"UTC", "Europe/Paris", "America/New_York", "Asia/Tokyo"};
    String zone = zones[i % zones.length];
    String every = null;
    String daily = null;
    String weekly = null;
    String cron = null;
    switch (i % 4) {
      case 0 -> every = (1 + i % 120) + "m";
      case 1 -> daily = String.format(Locale.ROOT, "%02d:%02d", i % 24, i % 60);
      case 2 -> weekly = "mon,wed,fri@" + String.format(Locale.ROOT, "%02d:30", i % 24);
      default -> cron = (i % 60) + " */2 * * *";
    }
    return new Schedules.Add(
        "bench",
        "prompt " + i,
        every,
        daily,
        weekly,
        cron,
        null,
        zone,
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
        null);
  }

  static String run(Database db, int count, int lookups, int fires) throws Exception {
    BlockingQueue<long[]> launched = new ArrayBlockingQueue<>(fires + 16);
    Scheduler.Launcher launcher =
        new Scheduler.Launcher() {
          @Override
          public Scheduler.Launched launch(Schedule schedule, long fireId, String key) {
            launched.add(new long[] {System.nanoTime(), fireId});
            return new Scheduler.Launched("ses-bench", null);
          }

          @Override
          public boolean running(String sessionId) {
            return false;
          }
        };
    Clock clock = Clock.systemUTC();
    StringBuilder report = new StringBuilder();
    Scheduler adding = new Scheduler(db, clock, launcher, Map.of());
    long[] adds = new long[count];
    for (int i = 0; i < count; i++) {
      Schedule draft = Drafts.draft(add(i), clock.instant());
      long t0 = System.nanoTime();
      adding.add(draft);
      adds[i] = System.nanoTime() - t0;
    }
    adding.close();

    Scheduler scheduler = new Scheduler(db, clock, launcher, Map.of());
    long t0 = System.nanoTime();
    scheduler.load();
    long load = System.nanoTime() - t0;

    List<Instant> dues = new ArrayList<>();
    for (Schedule s : scheduler.list(null)) {
      dues.add(s.nextDue());
    }
    long[] next = new long[lookups];
    long[] scan = new long[lookups];
    long sink = 0;
    for (int i = 0; i < lookups; i++) {
      long a = System.nanoTime();
      Instant found = scheduler.nextDue();
      next[i] = System.nanoTime() - a;
      long b = System.nanoTime();
      Instant least = Instant.MAX;
      for (Instant due : dues) {
        if (due.isBefore(least)) {
          least = due;
        }
      }
      scan[i] = System.nanoTime() - b;
      sink += found.getNano() + least.getNano();
    }
    long[] idle = new long[Math.min(lookups, 2_000)];
    for (int i = 0; i < idle.length; i++) {
      long a = System.nanoTime();
      scheduler.tick();
      idle[i] = System.nanoTime() - a;
    }

    // Fires: one `once` schedule at a time, due shortly; its latency from the due time. One of the
    // loaded schedules makes room (a server keeps at most 10,000).
    scheduler.remove(scheduler.list(null).get(0).id());
    scheduler.start();
    ScheduledExecutorService jdk = Executors.newSingleThreadScheduledExecutor();
    long[] fired = new long[fires];
    long[] timer = new long[fires];
    for (int i = 0; i < fires; i++) {
      Instant due = clock.instant().plusMillis(50);
      long dueNanos =
          System.nanoTime() + java.time.Duration.between(clock.instant(), due).toNanos();
      Schedule once =
          scheduler.add(
              Drafts.draft(
                  new Schedules.Add(
                      "bench",
                      "fire " + i,
                      null,
                      null,
                      null,
                      null,
                      due.toString(),
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
                      null),
                  clock.instant()));
      long[] got = launched.poll(10, TimeUnit.SECONDS);
      if (got == null) {
        throw new IllegalStateException("fire " + i + " never came");
      }
      fired[i] = got[0] - dueNanos;
      scheduler.remove(once.id());
      long scheduledAt = System.nanoTime() + 50_000_000L;
      long[] reached = new long[1];
      jdk.schedule(() -> reached[0] = System.nanoTime(), 50, TimeUnit.MILLISECONDS).get();
      timer[i] = reached[0] - scheduledAt;
    }
    jdk.shutdown();
    scheduler.close();

    Stats add = Stats.of(adds);
    Stats lookup = Stats.of(next);
    Stats reference = Stats.of(scan);
    Stats round = Stats.of(idle);
    Stats fire = Stats.of(fired);
    Stats jdkTimer = Stats.of(timer);
    report.append("schedules: ").append(count).append(" (sink ").append(sink % 7).append(")\n");
    report.append(
        String.format(
            Locale.ROOT,
            "  add            p50 %8.3f ms  p99 %8.3f ms  (%.0f/s)%n",
            ms(add.p50()),
            ms(add.p99()),
            1e9 / add.mean()));
    report.append(String.format(Locale.ROOT, "  load all       %8.1f ms%n", ms(load)));
    report.append(
        String.format(
            Locale.ROOT,
            "  next due       p50 %8.4f ms  p99 %8.4f ms%n",
            ms(lookup.p50()),
            ms(lookup.p99())));
    report.append(
        String.format(
            Locale.ROOT,
            "  scan (ref.)    p50 %8.4f ms  p99 %8.4f ms  next due / scan = %.3f%n",
            ms(reference.p50()),
            ms(reference.p99()),
            (double) lookup.p50() / reference.p50()));
    report.append(
        String.format(
            Locale.ROOT,
            "  idle round     p50 %8.4f ms  p99 %8.4f ms%n",
            ms(round.p50()),
            ms(round.p99())));
    report.append("fires: ").append(fires).append(", due 50 ms after they were added\n");
    report.append(
        String.format(
            Locale.ROOT,
            "  due -> launch  p50 %8.3f ms  p99 %8.3f ms%n",
            ms(fire.p50()),
            ms(fire.p99())));
    report.append(
        String.format(
            Locale.ROOT,
            "  JDK timer (ref.) p50 %6.3f ms  p99 %8.3f ms  fire / timer p50 = %.1f%n",
            ms(jdkTimer.p50()),
            ms(jdkTimer.p99()),
            (double) fire.p50() / Math.max(1, jdkTimer.p50())));
    return report.toString();
  }

  private static double ms(long nanos) {
    return nanos / 1e6;
  }
}
