package dev.cortex.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The command line of the workflow engine benchmark.
 *
 * @param repeats measured rounds per workflow length and variant
 * @param warmup unmeasured rounds before them
 * @param lengths workflow lengths to measure, in steps, in the order given
 */
record EngineOptions(int repeats, int warmup, List<Integer> lengths) {

  static final String USAGE =
      """
      usage: tools/bench/engine [--repeats R] [--warmup W] [--steps N,N,...]
        --repeats R   measured rounds per length and variant; medians are reported (default 7)
        --warmup W    unmeasured rounds before them, in the same JVM (default 2)
        --steps N,..  workflow lengths in steps, comma-separated (default 100,1000)\
      """;

  EngineOptions {
    lengths = List.copyOf(lengths);
  }

  /** Parses the arguments; throws {@link IllegalArgumentException} on bad usage. */
  static EngineOptions parse(String... args) {
    Map<String, String> v = Flags.parse(args, Set.of("--repeats", "--warmup", "--steps"));
    int repeats = Flags.count(v, "--repeats", 7, 1);
    int warmup = Flags.count(v, "--warmup", 2, 0);
    List<Integer> lengths = lengths(v.getOrDefault("--steps", "100,1000"));
    return new EngineOptions(repeats, warmup, lengths);
  }

  private static List<Integer> lengths(String value) {
    List<Integer> lengths = new ArrayList<>();
    for (String part : value.split(",", -1)) {
      lengths.add(Flags.count(Map.of("--steps", part.strip()), "--steps", 0, 1));
    }
    return lengths;
  }
}
