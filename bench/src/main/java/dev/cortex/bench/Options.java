package dev.cortex.bench;

import java.nio.file.Path;

/**
 * The command line of the harness.
 *
 * @param repeats process starts per server
 * @param calls {@code tools/call} round trips per server, all of them counted in the cold figures
 * @param warmup leading calls left out of the warm figures (0: no warm figures)
 * @param json where to write the results as JSON, or {@code null}
 * @param cortex the {@code bin/cortex} launcher
 * @param reference the reference server's JavaScript entry point
 * @param node the Node.js executable that runs the reference server
 */
record Options(
    int repeats, int calls, int warmup, Path json, Path cortex, Path reference, String node) {

  static final String USAGE =
      """
      usage: bench/run [--repeats R] [--calls N] [--warmup W] [--json FILE]
        --repeats R   process starts per server, alternating servers (default 15)
        --calls N     sequential tools/call round trips per server (default 2000)
        --warmup W    also report the calls after the first W as "warm" (default 0)
        --json FILE   also write the results, with every sample, as JSON
      set by bench/run: --cortex PATH (bin/cortex), --reference PATH (server entry), --node PATH\
      """;

  /** Parses the arguments; throws {@link IllegalArgumentException} on bad usage. */
  static Options parse(String... args) {
    int repeats = 15;
    int calls = 2000;
    int warmup = 0;
    Path json = null;
    Path cortex = null;
    Path reference = null;
    String node = "node";
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
        case "--calls" -> calls = count(flag, value, 1);
        case "--warmup" -> warmup = count(flag, value, 0);
        case "--json" -> json = Path.of(value);
        case "--cortex" -> cortex = Path.of(value);
        case "--reference" -> reference = Path.of(value);
        case "--node" -> node = value;
        default -> throw new IllegalArgumentException("unknown option " + flag);
      }
    }
    if (cortex == null || reference == null) {
      throw new IllegalArgumentException(
          "--cortex and --reference are required (bench/run sets them)");
    }
    if (warmup >= calls) {
      throw new IllegalArgumentException("--warmup must be smaller than --calls");
    }
    return new Options(repeats, calls, warmup, json, cortex, reference, node);
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
}
