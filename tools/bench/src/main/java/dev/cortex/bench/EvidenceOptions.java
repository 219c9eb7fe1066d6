package dev.cortex.bench;

import java.util.Map;
import java.util.Set;

/**
 * The command line of the evidence benchmark.
 *
 * @param repeats measured reviews per path and policy
 * @param warmup unmeasured reviews per path and policy before them
 * @param evidence evidence records of the review fixture
 * @param inserts evidence inserts per measured insert run
 * @param insertRuns measured insert runs, each into a fresh database
 * @param seed seed of the synthetic fixtures
 */
record EvidenceOptions(
    int repeats, int warmup, int evidence, int inserts, int insertRuns, long seed) {

  static final String USAGE =
      """
      usage: tools/bench/evidence [--repeats R] [--warmup W] [--evidence N] [--inserts N] [--insert-runs K] [--seed S]
        --repeats R      measured reviews per path and policy (default 50)
        --warmup W       unmeasured reviews per path and policy before them (default 20)
        --evidence N     evidence records of the review fixture (default 10000)
        --inserts N      Ledger.addEvidence calls per insert run (default 5000)
        --insert-runs K  insert runs, each into a fresh database; the median is reported (default 3)
        --seed S         seed of the synthetic fixtures (default 42)\
      """;

  /** Parses the arguments; throws {@link IllegalArgumentException} on bad usage. */
  static EvidenceOptions parse(String... args) {
    Map<String, String> v =
        Flags.parse(
            args,
            Set.of("--repeats", "--warmup", "--evidence", "--inserts", "--insert-runs", "--seed"));
    int repeats = Flags.count(v, "--repeats", 50, 1);
    int warmup = Flags.count(v, "--warmup", 20, 0);
    int evidence = Flags.count(v, "--evidence", 10_000, 1);
    int inserts = Flags.count(v, "--inserts", 5_000, 1);
    int insertRuns = Flags.count(v, "--insert-runs", 3, 1);
    long seed = v.containsKey("--seed") ? seed(v.get("--seed")) : 42;
    return new EvidenceOptions(repeats, warmup, evidence, inserts, insertRuns, seed);
  }

  private static long seed(String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--seed needs a whole number, not " + value, e);
    }
  }
}
