package dev.cortex.bench;

import dev.cortex.evidence.EvidenceBenchmarkSupport;
import dev.cortex.evidence.EvidenceBenchmarkSupport.ClaimSpec;
import dev.cortex.evidence.EvidenceBenchmarkSupport.EvidenceSpec;
import dev.cortex.evidence.EvidenceBenchmarkSupport.InMemoryClaim;
import dev.cortex.evidence.EvidenceBenchmarkSupport.Review;
import dev.cortex.evidence.EvidenceGroup;
import dev.cortex.storage.Database;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The evidence benchmark: claim reviews of a synthetic claim (32 criteria, 10,000 records) by the
 * pure review engine and through the SQLite ledger, and evidence inserts per second, each in its
 * own write transaction. Every database lives in a fresh temporary directory, deleted at the end.
 */
public final class EvidenceBench {
  static final List<String> POLICIES = List.of("strict-1", "provisional-1");
  private static final String PROJECT = "bench-evidence";

  private final EvidenceOptions options;
  private final PrintStream err;
  private final Clock clock = Clock.systemUTC();
  private int sink;

  private EvidenceBench(EvidenceOptions options, PrintStream err) {
    this.options = options;
    this.err = err;
  }

  public static void main(String[] args) {
    System.exit(run(System.out, System.err, args));
  }

  /** Runs the benchmark; 0 when it ran, 1 when it failed, 2 on bad usage. */
  static int run(PrintStream out, PrintStream err, String... args) {
    EvidenceOptions options;
    try {
      options = EvidenceOptions.parse(args);
    } catch (IllegalArgumentException e) {
      boolean help = e.getMessage().isEmpty();
      if (!help) {
        err.println("bench: " + e.getMessage());
      }
      err.println(EvidenceOptions.USAGE);
      return help ? 0 : 2;
    }
    Path dir = null;
    try {
      dir = Files.createTempDirectory("cortex-evidence-bench-");
      EvidenceResults results = new EvidenceBench(options, err).run(dir);
      EvidenceReport.print(results, out);
      return 0;
    } catch (IOException | RuntimeException e) {
      err.println("bench: failed: " + e);
      e.printStackTrace(err);
      return 1;
    } finally {
      Scratch.delete(dir, err);
    }
  }

  private EvidenceResults run(Path dir) throws IOException {
    Instant at = Instant.now();
    String loadBefore = Environment.loadAverage();
    ClaimSpec claim = EvidenceFixture.claim(options.seed(), PROJECT, options.evidence());
    List<EvidenceResults.PolicyRun> policies = new ArrayList<>();
    EvidenceResults.Phases phases;
    EvidenceResults.Storage storage;
    try (Database database = database(dir.resolve("review"))) {
      EvidenceBenchmarkSupport ledger = new EvidenceBenchmarkSupport(database);
      long seedNanos = seed(ledger, claim);
      storage = EvidenceProbe.storage(database, claim, seedNanos);
      InMemoryClaim loaded = EvidenceBenchmarkSupport.inMemory(claim);
      for (String policy : POLICIES) {
        policies.add(policyRun(ledger, claim, loaded, policy));
      }
      String policy = POLICIES.get(POLICIES.size() - 1);
      progress("parts of a ledger review under " + policy);
      ledger.provision(PROJECT, policy, clock.instant());
      phases =
          new EvidenceProbe(database, ledger, claim, options.warmup(), options.repeats())
              .phases(policy, () -> ledger.reviewClaim(PROJECT, claim.id(), clock.instant()));
    }
    List<EvidenceResults.InsertRun> inserts = insertRuns(dir);
    String load = "at start " + loadBefore + ", at end " + Environment.loadAverage();
    return new EvidenceResults(
        at,
        options,
        Environment.client(),
        Environment.jvmFlags(),
        Environment.host(),
        load,
        Environment.fileSystem(dir),
        claim,
        storage,
        policies,
        phases,
        inserts);
  }

  private Database database(Path dataDir) {
    return new Database(dataDir, List.of(EvidenceGroup.storageArea()), clock);
  }

  /** Stores the review fixture: the claim, then every record through Ledger.addEvidence. */
  private long seed(EvidenceBenchmarkSupport ledger, ClaimSpec claim) {
    progress("storing the fixture: " + claim.evidence().size() + " records");
    ledger.createClaim(claim);
    long start = System.nanoTime();
    for (EvidenceSpec evidence : claim.evidence()) {
      ledger.addEvidence(claim, evidence);
    }
    return System.nanoTime() - start;
  }

  private EvidenceResults.PolicyRun policyRun(
      EvidenceBenchmarkSupport ledger, ClaimSpec claim, InMemoryClaim loaded, String policy) {
    progress("reviews under " + policy);
    ledger.provision(PROJECT, policy, clock.instant());
    Timed pure = timed(() -> EvidenceBenchmarkSupport.review(policy, loaded), () -> {});
    Timed stored = timed(() -> ledger.reviewClaim(PROJECT, claim.id(), clock.instant()), () -> {});
    Timed afresh =
        timed(
            () -> ledger.reviewClaim(PROJECT, claim.id(), clock.instant()),
            () -> ledger.provision(PROJECT, policy, clock.instant()));
    return new EvidenceResults.PolicyRun(
        policy,
        pure.nanos(),
        stored.nanos(),
        afresh.nanos(),
        pure.last(),
        stored.last(),
        afresh.last());
  }

  /**
   * Warm-up, a full GC, then the measured repetitions, each after {@code before} (not timed); keeps
   * the last result. The GC also settles the records a pure review reads in the heap (see
   * tools/bench/README.md), whatever ran before.
   */
  private Timed timed(Supplier<Review> review, Runnable before) {
    for (int i = 0; i < options.warmup(); i++) {
      before.run();
      sink += review.get().status().length();
    }
    System.gc();
    long[] nanos = new long[options.repeats()];
    Review last = null;
    for (int i = 0; i < nanos.length; i++) {
      before.run();
      long start = System.nanoTime();
      last = review.get();
      nanos[i] = System.nanoTime() - start;
      sink += last.status().length();
    }
    return new Timed(nanos, last);
  }

  private record Timed(long[] nanos, Review last) {}

  /** One unmeasured run to warm the insert path up, then the measured runs, each fresh. */
  private List<EvidenceResults.InsertRun> insertRuns(Path dir) {
    ClaimSpec claim = EvidenceFixture.claim(options.seed() + 1, PROJECT, options.inserts());
    progress("inserts: warm-up run of " + Math.min(1000, options.inserts()));
    insertRun(dir.resolve("inserts-warmup"), claim, Math.min(1000, options.inserts()));
    List<EvidenceResults.InsertRun> runs = new ArrayList<>();
    for (int r = 1; r <= options.insertRuns(); r++) {
      progress("inserts: run " + r + "/" + options.insertRuns() + ", " + options.inserts());
      runs.add(insertRun(dir.resolve("inserts-" + r), claim, options.inserts()));
    }
    return runs;
  }

  private EvidenceResults.InsertRun insertRun(Path dataDir, ClaimSpec claim, int count) {
    long[] nanos = new long[count];
    long total;
    long fileBytes;
    long walBytes;
    Path file;
    try (Database database = database(dataDir)) {
      file = database.path();
      EvidenceBenchmarkSupport ledger = new EvidenceBenchmarkSupport(database);
      ledger.createClaim(claim); // opens and migrates the database: not measured
      long start = System.nanoTime();
      for (int i = 0; i < count; i++) {
        long before = System.nanoTime();
        ledger.addEvidence(claim, claim.evidence().get(i));
        nanos[i] = System.nanoTime() - before;
      }
      total = System.nanoTime() - start;
      fileBytes = size(file);
      walBytes = size(file.resolveSibling(file.getFileName() + "-wal"));
    }
    long closedBytes = size(file);
    Scratch.delete(dataDir, err);
    return new EvidenceResults.InsertRun(nanos, total, fileBytes, walBytes, closedBytes);
  }

  private static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void progress(String message) {
    err.println("bench: " + message);
  }
}
