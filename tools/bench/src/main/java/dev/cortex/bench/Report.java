package dev.cortex.bench;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.ToLongFunction;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/** Renders results as a compact table for people and as JSON for tools. Figures, not verdicts. */
final class Report {
  private static final double NANOS_PER_MS = 1e6;
  private static final double NANOS_PER_US = 1e3;

  private Report() {}

  static void print(Results results, PrintStream out) {
    Options options = results.options();
    printf(
        out,
        "cortex bench, %s: %d starts per server (alternating), %d calls per server (interleaved)%n",
        results.at(),
        options.repeats(),
        options.calls());
    out.println("client     " + results.client());
    out.println("host       " + results.host());
    out.println("load       " + results.load());
    for (Results.ServerResult result : results.servers()) {
      out.println();
      printServer(result, out);
    }
    out.println();
    printStarts(results, out);
    out.println();
    printRoundTrips(results, "cold: all " + options.calls() + " calls on a fresh process", 0, out);
    if (options.warmup() > 0) {
      out.println();
      printRoundTrips(
          results,
          "warm: calls " + (options.warmup() + 1) + ".." + options.calls(),
          options.warmup(),
          out);
    }
    out.println();
    printGoals(results, out);
    out.println();
    out.println("Notes");
    for (Results.ServerResult result : results.servers()) {
      for (String note : result.seen().notes()) {
        printf(out, "  %-10s %s%n", result.server().name(), note);
      }
    }
  }

  private static void printServer(Results.ServerResult result, PrintStream out) {
    printf(out, "%-10s %s%n", result.server().name(), result.server().commandLine());
    printf(out, "%-10s runtime: %s%n", "", result.runtime().version());
    printf(out, "%-10s runs:    %s%n", "", result.runtime().commandLine());
    printf(out, "%-10s call:    %s%n", "", result.server().callLine());
  }

  private static void printStarts(Results results, PrintStream out) {
    out.println("Start: spawn to initialize result, ms");
    printf(out, "  %-10s %6s %9s %9s %9s %9s%n", "server", "n", "median", "min", "p90", "max");
    for (Results.ServerResult result : results.servers()) {
      Stats s = result.start();
      printf(
          out,
          "  %-10s %6d %9.1f %9.1f %9.1f %9.1f%n",
          result.server().name(),
          s.count(),
          ms(s.p50()),
          ms(s.min()),
          ms(s.p90()),
          ms(s.max()));
    }
    printf(
        out,
        "  cortex/reference median ratio: %.2f%n",
        ratio(results.cortex().start(), results.reference().start(), Stats::p50));
  }

  private static void printRoundTrips(Results results, String label, int warmup, PrintStream out) {
    out.println("Round trip: tools/call, " + label + ", µs");
    printf(
        out,
        "  %-10s %6s %9s %9s %9s %9s %9s%n",
        "server",
        "n",
        "first",
        "p50",
        "p99",
        "max",
        "mean");
    for (Results.ServerResult result : results.servers()) {
      Stats s = result.warm(warmup);
      printf(
          out,
          "  %-10s %6d %9.1f %9.1f %9.1f %9.1f %9.1f%n",
          result.server().name(),
          s.count(),
          us(s.first()),
          us(s.p50()),
          us(s.p99()),
          us(s.max()),
          us(s.mean()));
    }
    Stats ours = results.cortex().warm(warmup);
    Stats theirs = results.reference().warm(warmup);
    printf(
        out,
        "  %-10s %6s %9.2f %9.2f %9.2f %9.2f %9.2f%n",
        "ratio",
        "",
        ratio(ours, theirs, Stats::first),
        ratio(ours, theirs, Stats::p50),
        ratio(ours, theirs, Stats::p99),
        ratio(ours, theirs, Stats::max),
        ratio(ours, theirs, Stats::mean));
  }

  private static void printGoals(Results results, PrintStream out) {
    int warmup = results.options().warmup();
    Stats ours = results.cortex().warm(warmup);
    Stats theirs = results.reference().warm(warmup);
    out.println("Against the goals (" + (warmup > 0 ? "warm" : "cold") + " round trips)");
    printf(
        out,
        "  start median ratio  %6.2f   goal <= 0.75%n",
        ratio(results.cortex().start(), results.reference().start(), Stats::p50));
    printf(out, "  p50 ratio           %6.2f   goal <= 1.00%n", ratio(ours, theirs, Stats::p50));
    printf(out, "  cortex p99 µs       %6.0f   goal < 2000%n", us(ours.p99()));
  }

  /** The results as JSON: settings, environment, figures per server with every sample, ratios. */
  static String json(Results results) {
    ObjectNode root = StdioClient.MAPPER.createObjectNode();
    root.put("timestamp", results.at().toString());
    Options options = results.options();
    root.putObject("settings")
        .put("repeats", options.repeats())
        .put("calls", options.calls())
        .put("warmup", options.warmup());
    root.put("client", results.client());
    root.put("host", results.host());
    root.put("load", results.load());
    ArrayNode servers = root.putArray("servers");
    for (Results.ServerResult result : results.servers()) {
      servers.add(server(result, options.warmup()));
    }
    ObjectNode ratios = root.putObject("ratios_cortex_over_reference");
    ratios.put(
        "start_median", ratio(results.cortex().start(), results.reference().start(), Stats::p50));
    ratios.set("round_trip_cold", ratios(results, 0));
    if (options.warmup() > 0) {
      ratios.set("round_trip_warm", ratios(results, options.warmup()));
    }
    return StdioClient.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(root);
  }

  private static ObjectNode server(Results.ServerResult result, int warmup) {
    ObjectNode node = StdioClient.MAPPER.createObjectNode();
    node.put("name", result.server().name());
    node.put("command", result.server().commandLine());
    node.put("call", result.server().callLine());
    node.putObject("runtime")
        .put("version", result.runtime().version())
        .put("command", result.runtime().commandLine());
    Stats start = result.start();
    ObjectNode starts = node.putObject("start_ms");
    starts
        .put("n", start.count())
        .put("median", ms(start.p50()))
        .put("min", ms(start.min()))
        .put("p90", ms(start.p90()))
        .put("max", ms(start.max()));
    ArrayNode startSamples = starts.putArray("samples");
    Arrays.stream(result.startNanos()).forEach(n -> startSamples.add(ms(n)));
    ObjectNode trips = node.putObject("round_trip_us");
    trips.set("cold", callStats(result.cold()));
    if (warmup > 0) {
      trips.set("warm", callStats(result.warm(warmup)));
    }
    ArrayNode callSamples = trips.putArray("samples");
    Arrays.stream(result.callNanos()).forEach(n -> callSamples.add(us(n)));
    ArrayNode notes = node.putArray("notes");
    result.seen().notes().forEach(notes::add);
    return node;
  }

  private static ObjectNode callStats(Stats s) {
    return StdioClient.MAPPER
        .createObjectNode()
        .put("n", s.count())
        .put("first", us(s.first()))
        .put("p50", us(s.p50()))
        .put("p99", us(s.p99()))
        .put("max", us(s.max()))
        .put("mean", us(s.mean()));
  }

  private static ObjectNode ratios(Results results, int warmup) {
    Stats ours = results.cortex().warm(warmup);
    Stats theirs = results.reference().warm(warmup);
    return StdioClient.MAPPER
        .createObjectNode()
        .put("first", ratio(ours, theirs, Stats::first))
        .put("p50", ratio(ours, theirs, Stats::p50))
        .put("p99", ratio(ours, theirs, Stats::p99))
        .put("max", ratio(ours, theirs, Stats::max))
        .put("mean", ratio(ours, theirs, Stats::mean));
  }

  private static double ratio(Stats ours, Stats theirs, ToLongFunction<Stats> figure) {
    return round((double) figure.applyAsLong(ours) / figure.applyAsLong(theirs), 1000);
  }

  private static double ms(long nanos) {
    return round(nanos / NANOS_PER_MS, 1000);
  }

  private static double us(long nanos) {
    return round(nanos / NANOS_PER_US, 10);
  }

  private static double round(double value, double scale) {
    return Math.round(value * scale) / scale;
  }

  private static void printf(PrintStream out, String format, Object... args) {
    out.print(String.format(Locale.ROOT, format, args));
  }
}
