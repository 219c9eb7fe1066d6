package dev.cortex.bench;

import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

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
      usage: tools/bench/run [--repeats R] [--calls N] [--warmup W] [--json FILE]
        --repeats R   process starts per server, alternating servers (default 15)
        --calls N     sequential tools/call round trips per server (default 2000)
        --warmup W    also report the calls after the first W as "warm" (default 0)
        --json FILE   also write the results, with every sample, as JSON
      set by tools/bench/run: --cortex PATH (bin/cortex), --reference PATH (server entry), --node PATH\
      """;

  /** Parses the arguments; throws {@link IllegalArgumentException} on bad usage. */
  static Options parse(String... args) {
    Map<String, String> v =
        Flags.parse(
            args,
            Set.of(
                "--repeats", "--calls", "--warmup", "--json", "--cortex", "--reference", "--node"));
    int repeats = Flags.count(v, "--repeats", 15, 1);
    int calls = Flags.count(v, "--calls", 2000, 1);
    int warmup = Flags.count(v, "--warmup", 0, 0);
    Path json = v.containsKey("--json") ? Path.of(v.get("--json")) : null;
    Path cortex = v.containsKey("--cortex") ? Path.of(v.get("--cortex")) : null;
    Path reference = v.containsKey("--reference") ? Path.of(v.get("--reference")) : null;
    String node = v.getOrDefault("--node", "node");
    if (cortex == null || reference == null) {
      throw new IllegalArgumentException(
          "--cortex and --reference are required (tools/bench/run sets them)");
    }
    if (warmup >= calls) {
      throw new IllegalArgumentException("--warmup must be smaller than --calls");
    }
    return new Options(repeats, calls, warmup, json, cortex, reference, node);
  }
}
