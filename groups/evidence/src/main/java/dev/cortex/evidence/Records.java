package dev.cortex.evidence;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** The ledger's records, as stored and as reviewed. */
final class Records {
  private Records() {}

  /** A verification criterion of a claim. */
  record Criterion(String id, String key, String description, boolean required) {
    Criterion {
      Objects.requireNonNull(id);
      Objects.requireNonNull(key);
    }
  }

  /** A claim and its criteria, in the order they were given. */
  record Claim(
      String id, String projectId, String statement, List<Criterion> criteria, Instant createdAt) {
    Claim {
      criteria = List.copyOf(criteria);
    }

    List<Criterion> required() {
      return criteria.stream().filter(Criterion::required).toList();
    }
  }

  /** One piece of evidence, linked to a claim and optionally to one of its criteria. */
  record Evidence(
      String id,
      String projectId,
      String claimId,
      String criterionId,
      String contentSummary,
      Relation relation,
      Origin origin,
      SourceType sourceType,
      String sourceRef,
      String collector,
      String artifactDigest,
      Instant observedAt,
      Instant createdAt) {}

  /** An assumption the caller is tracking, with its current status. */
  record Assumption(
      String id,
      String projectId,
      String statement,
      String context,
      Double confidence,
      AssumptionStatus status,
      Instant createdAt,
      Instant updatedAt) {}

  /** A claim with the evidence recorded against it, as a review sees it. */
  record ClaimWithEvidence(Claim claim, List<Evidence> evidence) {
    ClaimWithEvidence {
      evidence = List.copyOf(evidence);
    }
  }
}
