package dev.cortex.bench;

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
      usage: bench/evidence [--repeats R] [--warmup W] [--evidence N] [--inserts N] [--insert-runs K] [--seed S]
        --repeats R      measured reviews per path and policy (default 50)
        --warmup W       unmeasured reviews per path and policy before them (default 20)
        --evidence N     evidence records of the review fixture (default 10000)
        --inserts N      Ledger.addEvidence calls per insert run (default 5000)
        --insert-runs K  insert runs, each into a fresh database; the median is reported (default 3)
        --seed S         seed of the synthetic fixtures (default 42)\
      """;

  /** Parses the arguments; throws {@link IllegalArgumentException} on bad usage. */
  static EvidenceOptions parse(String... args) {
    int repeats = 50;
    int warmup = 20;
    int evidence = 10_000;
    int inserts = 5_000;
    int insertRuns = 3;
    long seed = 42;
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("-h") || flag.equals("--help")) {
        throw new IllegalArgumentException("");
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value for " + flag);
      }
      String value = args[++i];
      switch (flag) {
        case "--repeats" -> repeats = count(flag, value, 1);
        case "--warmup" -> warmup = count(flag, value, 0);
        case "--evidence" -> evidence = count(flag, value, 1);
        case "--inserts" -> inserts = count(flag, value, 1);
        case "--insert-runs" -> insertRuns = count(flag, value, 1);
        case "--seed" -> seed = seed(value);
        default -> throw new IllegalArgumentException("unknown option " + flag);
      }
    }
    return new EvidenceOptions(repeats, warmup, evidence, inserts, insertRuns, seed);
  }

  private static int count(String flag, String value, int min) {
    try {
      int n = Integer.parseInt(value);
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(flag + " needs a whole number >= " + min + ", not " + value);
  }

  private static long seed(String value) {
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--seed needs a whole number, not " + value, e);
    }
  }
}
