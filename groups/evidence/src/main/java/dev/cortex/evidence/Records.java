package dev.cortex.evidence;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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

  /** A claim with the evidence recorded against it. */
  record ClaimWithEvidence(Claim claim, List<Evidence> evidence) {
    ClaimWithEvidence {
      evidence = List.copyOf(evidence);
    }

    /** The same evidence, counted as a review needs it. */
    ClaimTallies tallies() {
      Map<Tally.Key, List<String>> groups = new HashMap<>();
      for (Evidence e : evidence) {
        groups
            .computeIfAbsent(
                new Tally.Key(e.criterionId(), e.relation(), e.origin()), k -> new ArrayList<>())
            .add(e.id());
      }
      List<Tally> tallies = new ArrayList<>();
      groups.forEach((key, ids) -> tallies.add(Tally.of(key, ids.size(), ids)));
      return new ClaimTallies(claim, tallies);
    }
  }

  /**
   * The evidence of one claim sharing a criterion (null: the claim as a whole), a relation and an
   * origin: how many records, and the smallest few of their IDs. All a review needs to know, so
   * that reviewing 10,000 records reads a few hundred tallies, not 10,000 rows.
   */
  record Tally(
      String criterionId, Relation relation, Origin origin, int count, List<String> firstIds) {
    /** IDs kept per tally: as many as a grouped finding shows. */
    static final int KEPT = 3;

    record Key(String criterionId, Relation relation, Origin origin) {}

    Tally {
      firstIds = List.copyOf(firstIds);
    }

    /** A tally of {@code count} records from any of their IDs (the smallest are kept). */
    static Tally of(Key key, int count, Collection<String> ids) {
      List<String> first = ids.stream().sorted().limit(KEPT).toList();
      return new Tally(key.criterionId(), key.relation(), key.origin(), count, first);
    }
  }

  /** A claim and the tallies of its evidence, as a review sees it. */
  record ClaimTallies(Claim claim, List<Tally> tallies) {
    ClaimTallies {
      tallies = List.copyOf(tallies);
    }
  }
}
