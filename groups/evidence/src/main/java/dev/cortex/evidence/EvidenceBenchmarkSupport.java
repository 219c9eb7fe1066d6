package dev.cortex.evidence;

import dev.cortex.base.Json;
import dev.cortex.evidence.Inputs.CriterionInput;
import dev.cortex.evidence.Records.ClaimTallies;
import dev.cortex.evidence.Records.Evidence;
import dev.cortex.evidence.ReviewModel.ClaimEvaluation;
import dev.cortex.evidence.ReviewModel.CriterionEvaluation;
import dev.cortex.evidence.ReviewModel.CriterionOutcome;
import dev.cortex.evidence.ReviewModel.Finding;
import dev.cortex.storage.Database;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Exists only for the evidence benchmark ({@code bench/evidence}), which lives in another module:
 * it reaches the package-private review engine and ledger through plain values. Not a product API;
 * nothing in Cortex uses it. One thread at a time.
 */
public final class EvidenceBenchmarkSupport {
  private final Deque<String> nextIds = new ArrayDeque<>();
  private final Ledger ledger;

  /** A ledger on {@code database} that stores records under the IDs their specs give. */
  public EvidenceBenchmarkSupport(Database database) {
    this.ledger =
        new Ledger(
            () -> database,
            () -> nextIds.isEmpty() ? UUID.randomUUID().toString() : nextIds.poll());
  }

  /** A criterion of a synthetic claim. */
  public record CriterionSpec(String id, String key, boolean required) {}

  /**
   * One evidence record; relation, origin and source type in wire spelling ({@code supports},
   * {@code user_attested}, {@code test}); {@code criterionId} null links it to the claim only.
   */
  public record EvidenceSpec(
      String id,
      String criterionId,
      String relation,
      String origin,
      String sourceType,
      String contentSummary,
      String sourceRef,
      String collector,
      String artifactDigest,
      Instant observedAt,
      Instant createdAt) {}

  /** A synthetic claim with its criteria and evidence. */
  public record ClaimSpec(
      String id,
      String projectId,
      String statement,
      List<CriterionSpec> criteria,
      List<EvidenceSpec> evidence,
      Instant createdAt) {
    public ClaimSpec {
      criteria = List.copyOf(criteria);
      evidence = List.copyOf(evidence);
    }
  }

  /** The ledger's query that tallies a claim's evidence (one parameter: the claim ID). */
  public static final String TALLY_QUERY = Ledger.TALLY_SQL;

  /**
   * A claim's evidence as the review engine takes it: tallies, either counted in memory from the
   * records on every review, or loaded once from the database.
   */
  public static final class InMemoryClaim {
    private final java.util.function.Supplier<ClaimTallies> target;

    private InMemoryClaim(java.util.function.Supplier<ClaimTallies> target) {
      this.target = target;
    }
  }

  /**
   * The claim's records in memory; each review tallies them anew (as a records-based engine would).
   */
  public static InMemoryClaim inMemory(ClaimSpec spec) {
    Records.Claim claim =
        new Records.Claim(
            spec.id(),
            spec.projectId(),
            spec.statement(),
            spec.criteria().stream()
                .map(
                    k ->
                        new Records.Criterion(
                            k.id(), k.key(), "Criterion " + k.key() + ".", k.required()))
                .toList(),
            spec.createdAt());
    Records.ClaimWithEvidence records =
        new Records.ClaimWithEvidence(
            claim, spec.evidence().stream().map(e -> evidence(spec, e)).toList());
    return new InMemoryClaim(records::tallies);
  }

  /** The pure review: {@code Reviewer.reviewClaim} on the claim's tallies, nothing stored. */
  public static Review review(String policyVersion, InMemoryClaim claim) {
    ReviewModel.Outcome outcome =
        Reviewer.reviewClaim(Policy.ofVersion(policyVersion), claim.target.get());
    return new Review(outcome.status(), outcome.claimEvaluations(), outcome.findings(), outcome);
  }

  /** Sets the project's policy, creating the project if needed. */
  public void provision(String projectId, String policyVersion, Instant now) {
    ledger.provision(projectId, Policy.ofVersion(policyVersion), now);
  }

  /** Stores the claim and its criteria (not its evidence) in one transaction. */
  public void createClaim(ClaimSpec spec) {
    nextIds.add(spec.id());
    spec.criteria().forEach(k -> nextIds.add(k.id()));
    List<CriterionInput> criteria =
        spec.criteria().stream()
            .map(k -> new CriterionInput(k.key(), "Criterion " + k.key() + ".", k.required()))
            .toList();
    try {
      ledger.createClaim(spec.projectId(), spec.statement(), criteria, spec.createdAt());
    } finally {
      nextIds.clear();
    }
  }

  /** {@code Ledger.addEvidence}: one write transaction. */
  public void addEvidence(ClaimSpec claim, EvidenceSpec evidence) {
    nextIds.add(evidence.id());
    try {
      ledger.addEvidence(evidence(claim, evidence));
    } finally {
      nextIds.clear();
    }
  }

  /**
   * {@code Ledger.reviewClaim}: loads (from the ledger's cache while the database is unchanged),
   * evaluates and saves the snapshot in one write transaction.
   */
  public Review reviewClaim(String projectId, String claimId, Instant now) {
    Results.SavedReview saved = ledger.reviewClaim(projectId, claimId, now);
    return new Review(saved.status(), saved.claimEvaluations(), saved.findings(), saved);
  }

  /**
   * Loads the claim and the tallies of its evidence as {@code Ledger.reviewClaim} does after a
   * write (the same queries), in a read transaction: the load phase of such a review, timed on its
   * own.
   */
  public InMemoryClaim load(String projectId, String claimId) {
    ClaimTallies loaded =
        ledger.database().read(c -> Ledger.tallies(c, Ledger.claim(c, projectId, claimId)));
    return new InMemoryClaim(() -> loaded);
  }

  private static Evidence evidence(ClaimSpec claim, EvidenceSpec e) {
    return new Evidence(
        e.id(),
        claim.projectId(),
        claim.id(),
        e.criterionId(),
        e.contentSummary(),
        WireName.parse(Relation.class, e.relation()),
        WireName.parse(Origin.class, e.origin()),
        WireName.parse(SourceType.class, e.sourceType()),
        e.sourceRef(),
        e.collector(),
        e.artifactDigest(),
        e.observedAt(),
        e.createdAt());
  }

  /** What a review concluded, summarised in plain values. */
  public static final class Review {
    private final String status;
    private final List<ClaimEvaluation> evaluations;
    private final List<Finding> findings;
    private final Object snapshot;

    private Review(
        String status, List<ClaimEvaluation> evaluations, List<Finding> findings, Object snapshot) {
      this.status = status;
      this.evaluations = evaluations;
      this.findings = findings;
      this.snapshot = snapshot;
    }

    /** The claim's status: {@code verified}, {@code contradicted} or {@code unverified}. */
    public String status() {
      return status;
    }

    /** Required criteria per outcome, every outcome listed (zeros too), in review order. */
    public Map<String, Integer> criterionOutcomes() {
      Map<String, Integer> counts = new LinkedHashMap<>();
      for (CriterionOutcome outcome : CriterionOutcome.values()) {
        counts.put(outcome.wire(), 0);
      }
      for (ClaimEvaluation evaluation : evaluations) {
        for (CriterionEvaluation criterion : evaluation.criterionEvaluations()) {
          counts.merge(criterion.outcome().wire(), 1, Integer::sum);
        }
      }
      return counts;
    }

    /** One row per finding, in review order. */
    public List<FindingRow> findings() {
      return findings.stream()
          .map(
              f ->
                  new FindingRow(
                      f.ruleId().name(), f.severity().wire(), f.criterionId(), f.evidenceCount()))
          .toList();
    }

    /**
     * Size in bytes of the JSON: as saved in {@code evidence_reviews.snapshot} for a ledger review.
     */
    public int snapshotBytes() {
      return Json.write(snapshot).getBytes(StandardCharsets.UTF_8).length;
    }

    /** Same status, claim evaluations and findings (IDs included). */
    public boolean sameOutcome(Review other) {
      return status.equals(other.status)
          && evaluations.equals(other.evaluations)
          && findings.equals(other.findings);
    }
  }

  /** A finding; {@code criterionId} is null for claim-level findings. */
  public record FindingRow(String rule, String severity, String criterionId, int evidenceCount) {}
}
