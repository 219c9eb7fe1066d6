package dev.cortex.bench;

import dev.cortex.bench.EvidenceProbe.Part;
import dev.cortex.evidence.EvidenceBenchmarkSupport.FindingRow;
import dev.cortex.evidence.EvidenceBenchmarkSupport.Review;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** Renders the evidence benchmark's results as a compact text report. */
final class EvidenceReport {
  /** Width of the label column, indentation included. */
  private static final int LABEL = 53;

  private static final List<String> SEVERITIES = List.of("error", "warning", "info");

  private EvidenceReport() {}

  static void print(EvidenceResults r, PrintStream out) {
    header(r, out);
    fixture(r, out);
    reviews(r, out);
    outcomes(r, out);
    phases(r, out);
    inserts(r, out);
  }

  private static void header(EvidenceResults r, PrintStream out) {
    out.println("Evidence benchmark, " + r.at());
    out.println("  harness   " + r.client());
    out.println("  flags     " + (r.jvmFlags().isEmpty() ? "(none)" : r.jvmFlags()));
    out.println("  host      " + r.host());
    out.println("  load      " + r.load());
    out.println("  files     " + r.fileSystem() + ", deleted at the end");
  }

  private static void fixture(EvidenceResults r, PrintStream out) {
    int required = (int) r.claim().criteria().stream().filter(k -> k.required()).count();
    int records = r.claim().evidence().size();
    out.println();
    out.printf(
        Locale.ROOT,
        "Fixture (seed %d): 1 claim, %d criteria (%d required, %d optional), %d evidence records%n",
        r.options().seed(),
        r.claim().criteria().size(),
        required,
        r.claim().criteria().size() - required,
        records);
    Map<String, Integer> census = EvidenceFixture.census(r.claim());
    for (String group : List.of("link", "relation", "origin")) {
      List<String> parts = new ArrayList<>();
      census.forEach(
          (key, count) -> {
            if (key.startsWith(group + " ")) {
              parts.add(key.substring(group.length() + 1) + " " + count);
            }
          });
      out.printf(Locale.ROOT, "  %-9s %s%n", group, String.join(", ", parts));
    }
    EvidenceResults.Storage s = r.storage();
    out.printf(
        Locale.ROOT,
        "  stored    %d Ledger.addEvidence calls in %.1f s (%,.0f/s); file %s + WAL %s%n",
        records,
        s.seedNanos() / 1e9,
        records * 1e9 / s.seedNanos(),
        bytes(s.fileBytes()),
        bytes(s.walBytes()));
  }

  private static void reviews(EvidenceResults r, PrintStream out) {
    out.println();
    String title =
        String.format(
            Locale.ROOT,
            "Review time, ms (%d runs after %d warm-up)",
            r.options().repeats(),
            r.options().warmup());
    out.printf(Locale.ROOT, "%-" + LABEL + "s %8s %8s %8s%n", title, "median", "p90", "min");
    for (String path : List.of("pure", "ledger", "afresh")) {
      for (EvidenceResults.PolicyRun run : r.policies()) {
        Stats stats =
            Stats.of(
                switch (path) {
                  case "pure" -> run.pure();
                  case "ledger" -> run.ledger();
                  default -> run.afresh();
                });
        String label = String.format(Locale.ROOT, "  %-7s %s", path, run.policy());
        out.printf(
            Locale.ROOT,
            "%-" + LABEL + "s %8s %8s %8s%n",
            label,
            ms(stats.p50()),
            ms(stats.p90()),
            ms(stats.min()));
      }
    }
    out.println(
        "  pure: the fixture's 10,000 records in memory, tallied per criterion, relation and origin,");
    out.println(
        "  then Reviewer.reviewClaim. ledger: Ledger.reviewClaim, one write transaction: policy,");
    out.println(
        "  claim, its stored tallies (kept by every insert), evaluate, save the snapshot; the same");
    out.println(
        "  claim again and again, so the tallies come from the ledger's cache. afresh: the same,");
    out.println(
        "  each run after a write (the policy set again, not timed), which drops the cache: the");
    out.println("  review reads the claim's criteria and tallies from SQLite.");
  }

  private static void outcomes(EvidenceResults r, PrintStream out) {
    List<Review> reviews =
        r.policies().stream().map(EvidenceResults.PolicyRun::ledgerReview).toList();
    out.println();
    row(out, "Rule outcomes", r.policies().stream().map(p -> p.policy()).toList());
    row(out, "  claim status", values(reviews, Review::status));
    out.println("  required criteria by outcome");
    for (String outcome : reviews.get(0).criterionOutcomes().keySet()) {
      row(
          out,
          "    " + outcome,
          values(reviews, review -> String.valueOf(review.criterionOutcomes().get(outcome))));
    }
    out.println("  findings by severity, rule and scope: count (records)");
    findings(reviews).forEach((label, values) -> row(out, "    " + label, values));
    row(out, "  snapshot JSON", values(reviews, review -> bytes(review.snapshotBytes())));
    row(
        out,
        "  pure, ledger and afresh outcomes identical",
        r.policies().stream()
            .map(
                run ->
                    run.pureReview().sameOutcome(run.ledgerReview())
                            && run.pureReview().sameOutcome(run.afreshReview())
                        ? "yes"
                        : "NO")
            .toList());
  }

  private static List<String> values(List<Review> reviews, Function<Review, String> value) {
    return reviews.stream().map(value).toList();
  }

  private static void row(PrintStream out, String label, List<String> values) {
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-" + LABEL + "s", label));
    values.forEach(v -> line.append(String.format(Locale.ROOT, " %-22s", v)));
    out.println(line.toString().stripTrailing());
  }

  /**
   * Findings per severity, rule and scope: how many, and how many records they count. Every row
   * that any policy produced is listed for all.
   */
  private static Map<String, List<String>> findings(List<Review> reviews) {
    Map<String, List<String>> rows =
        new TreeMap<>(
            Comparator.comparing((String key) -> SEVERITIES.indexOf(key.split(" ")[0]))
                .thenComparing(Comparator.naturalOrder()));
    for (int i = 0; i < reviews.size(); i++) {
      Map<String, int[]> counts = new TreeMap<>();
      for (FindingRow f : reviews.get(i).findings()) {
        String key =
            String.format(Locale.ROOT, "%-7s %s", f.severity(), f.rule())
                + (f.criterionId() == null ? " claim" : " criterion");
        int[] c = counts.computeIfAbsent(key, k -> new int[2]);
        c[0]++;
        c[1] += f.evidenceCount();
      }
      for (Map.Entry<String, int[]> e : counts.entrySet()) {
        List<String> row =
            rows.computeIfAbsent(
                e.getKey(), k -> new ArrayList<>(Collections.nCopies(reviews.size(), "-")));
        int[] c = e.getValue();
        row.set(i, c[0] + (c[1] == 0 ? "" : " (" + c[1] + ")"));
      }
    }
    return rows;
  }

  private static void phases(EvidenceResults r, PrintStream out) {
    EvidenceResults.Phases p = r.phases();
    long total = p.median(Part.REVIEW);
    long load = p.median(Part.LOAD);
    long query = p.median(Part.QUERY);
    long evaluate = p.median(Part.EVALUATE);
    long snapshot = p.median(Part.SNAPSHOT);
    out.println();
    out.printf(
        Locale.ROOT,
        "%-" + LABEL + "s %8s%n",
        "Where a ledger review's time goes (" + p.policy() + ")",
        "median");
    line(out, "ledger review, whole (tallies cached)", total);
    line(out, "evaluate the tallies", evaluate);
    line(out, "snapshot to JSON (" + bytes(p.snapshotBytes()) + ")", snapshot);
    line(out, "rest: transaction, policy, claim, saving", total - evaluate - snapshot);
    line(out, "after a write, also: load (own read tx)", load);
    line(out, "  tally query: the claim's stored tallies, as one text", query);
    line(out, "  rest of load: claim, criteria, parsing the tallies", load - query);
    out.println("  parts timed in turn, each round; a \"rest\" is the difference of medians");
    out.println("  query plan: " + r.storage().queryPlan());
  }

  private static void line(PrintStream out, String label, long nanos) {
    out.printf(Locale.ROOT, "%-" + LABEL + "s %8s%n", "  " + label, ms(nanos));
  }

  private static void inserts(EvidenceResults r, PrintStream out) {
    out.println();
    out.println("Inserts: Ledger.addEvidence into a fresh database, each call its own transaction");
    out.println("  settings  " + r.storage().pragmas());
    List<EvidenceResults.InsertRun> runs = r.inserts();
    for (int i = 0; i < runs.size(); i++) {
      EvidenceResults.InsertRun run = runs.get(i);
      Stats stats = Stats.of(run.nanos());
      out.printf(
          Locale.ROOT,
          "  run %-5d %d in %.2f s: %,.0f/s; per insert ms p50 %s, p99 %s, max %s%n",
          i + 1,
          run.nanos().length,
          run.totalNanos() / 1e9,
          run.perSecond(),
          ms(stats.p50()),
          ms(stats.p99()),
          ms(stats.max()));
    }
    EvidenceResults.InsertRun median =
        runs.stream()
            .sorted(Comparator.comparingDouble(EvidenceResults.InsertRun::perSecond))
            .toList()
            .get((runs.size() - 1) / 2);
    out.printf(
        Locale.ROOT,
        "  median    %,.0f inserts/s (of %d run%s)%n",
        median.perSecond(),
        runs.size(),
        runs.size() == 1 ? "" : "s");
    out.printf(
        Locale.ROOT,
        "  file      after that run's %d inserts: %s + WAL %s while open, %s once closed%n",
        median.nanos().length,
        bytes(median.fileBytes()),
        bytes(median.walBytes()),
        bytes(median.closedBytes()));
    out.println(
        "  durable   each commit is in the WAL file (written to the OS) before addEvidence");
    out.println(
        "            returns: it survives a crash of the process. synchronous=NORMAL syncs");
    out.println("            the WAL to disk only at checkpoints, so a power loss or OS crash can");
    out.println("            lose the last commits (never corrupt the database).");
  }

  private static String ms(long nanos) {
    return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
  }

  private static String bytes(long bytes) {
    if (bytes < 1024 * 1024) {
      return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }
    return String.format(Locale.ROOT, "%.2f MiB", bytes / (1024.0 * 1024));
  }
}
