package dev.cortex.bench;

import dev.cortex.evidence.EvidenceBenchmarkSupport.ClaimSpec;
import dev.cortex.evidence.EvidenceBenchmarkSupport.CriterionSpec;
import dev.cortex.evidence.EvidenceBenchmarkSupport.EvidenceSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A synthetic claim for the evidence benchmark, the same for the same seed: 32 criteria (24
 * required, 8 optional) and evidence spread over the criteria and the claim itself.
 *
 * <p>Each required criterion has a profile that limits what its records say, so that one fixture
 * reaches every criterion outcome and every rule a claim review applies, under both policies: the
 * records of a criterion are otherwise drawn at random (relation, origin, source type).
 */
final class EvidenceFixture {
  static final int CRITERIA = 32;
  static final int REQUIRED = 24;
  private static final Instant BASE = Instant.parse("2025-01-01T00:00:00Z");
  private static final String[] ORIGINS = {
    "agent_reported", "agent_reported", "user_attested", "tool_output_recorded"
  };
  private static final String[] SOURCE_TYPES = {
    "test", "build", "log", "document", "manual_observation", "other"
  };

  /** What the records linked to a criterion (or to the claim) may say. */
  enum Profile {
    /** Supports and contradictions from any origin: conflicting reports. */
    CONFLICTING(0.55, 0.25, false),
    /** Contradictions and neutral records only: a reported failure. */
    FAILING(0, 0.7, false),
    /** Neutral records only: missing evidence. */
    NEUTRAL_ONLY(0, 0, false),
    /** No records at all: missing evidence. */
    EMPTY(0, 0, false),
    /** Supports by agents only, plus neutral records: supported, but not by an admitted origin. */
    AGENT_SUPPORT(0.7, 0, true),
    /** Supports and neutral records from any origin: supported under provisional-1. */
    SUPPORT(0.7, 0, false),
    /** Optional criteria and claim-level records: a bit of everything. */
    MIXED(0.5, 0.2, false);

    final double supports;
    final double contradicts;
    final boolean agentSupportsOnly;

    Profile(double supports, double contradicts, boolean agentSupportsOnly) {
      this.supports = supports;
      this.contradicts = contradicts;
      this.agentSupportsOnly = agentSupportsOnly;
    }
  }

  /** Profiles of the 24 required criteria, in key order. */
  private static final Profile[] REQUIRED_PROFILES = {
    Profile.CONFLICTING, Profile.SUPPORT, Profile.AGENT_SUPPORT, Profile.FAILING,
    Profile.CONFLICTING, Profile.SUPPORT, Profile.AGENT_SUPPORT, Profile.NEUTRAL_ONLY,
    Profile.CONFLICTING, Profile.SUPPORT, Profile.AGENT_SUPPORT, Profile.FAILING,
    Profile.CONFLICTING, Profile.SUPPORT, Profile.AGENT_SUPPORT, Profile.NEUTRAL_ONLY,
    Profile.CONFLICTING, Profile.SUPPORT, Profile.AGENT_SUPPORT, Profile.FAILING,
    Profile.CONFLICTING, Profile.SUPPORT, Profile.AGENT_SUPPORT, Profile.EMPTY,
  };

  /** Shares of the records: linked to the claim only, to optional criteria, to required ones. */
  private static final double CLAIM_SHARE = 0.15;

  private static final double OPTIONAL_SHARE = 0.15;

  private final Random random;
  private final ClaimSpec claim;
  private final List<Profile> profiles = new ArrayList<>();

  private EvidenceFixture(long seed, String projectId, int evidence) {
    this.random = new Random(seed);
    String claimId = id();
    List<CriterionSpec> criteria = new ArrayList<>();
    for (int i = 0; i < CRITERIA; i++) {
      boolean required = i < REQUIRED;
      criteria.add(new CriterionSpec(id(), String.format("c%02d", i + 1), required));
      profiles.add(required ? REQUIRED_PROFILES[i] : Profile.MIXED);
    }
    List<EvidenceSpec> records = new ArrayList<>(evidence);
    for (int i = 0; i < evidence; i++) {
      records.add(record(i, criteria));
    }
    this.claim =
        new ClaimSpec(
            claimId,
            projectId,
            "Synthetic claim of the evidence benchmark (seed " + seed + ").",
            criteria,
            records,
            BASE);
  }

  static ClaimSpec claim(long seed, String projectId, int evidence) {
    return new EvidenceFixture(seed, projectId, evidence).claim;
  }

  private String id() {
    return new UUID(random.nextLong(), random.nextLong()).toString();
  }

  private EvidenceSpec record(int n, List<CriterionSpec> criteria) {
    double share = random.nextDouble();
    CriterionSpec criterion;
    if (share < CLAIM_SHARE) {
      criterion = null;
    } else if (share < CLAIM_SHARE + OPTIONAL_SHARE) {
      criterion = criteria.get(REQUIRED + random.nextInt(CRITERIA - REQUIRED));
    } else {
      criterion = requiredWithRecords(criteria);
    }
    Profile profile = criterion == null ? Profile.MIXED : profiles.get(criteria.indexOf(criterion));
    String relation = relation(profile);
    String origin =
        relation.equals("supports") && profile.agentSupportsOnly
            ? "agent_reported"
            : ORIGINS[random.nextInt(ORIGINS.length)];
    String key = criterion == null ? "the claim" : "criterion " + criterion.key();
    boolean digest = random.nextInt(10) < 4;
    return new EvidenceSpec(
        id(),
        criterion == null ? null : criterion.id(),
        relation,
        origin,
        SOURCE_TYPES[random.nextInt(SOURCE_TYPES.length)],
        "Synthetic record " + n + ": " + relation + " " + key + ", as observed in run " + n % 97,
        random.nextInt(10) < 7 ? "src/test/java/dev/example/Case" + n % 211 + "Test.java" : null,
        random.nextBoolean() ? "bench-agent" : null,
        digest ? "sha256:" + hex() : null,
        BASE.minus(Duration.ofMinutes(random.nextInt(60 * 24 * 30))),
        BASE.plusSeconds(n));
  }

  private CriterionSpec requiredWithRecords(List<CriterionSpec> criteria) {
    while (true) {
      int i = random.nextInt(REQUIRED);
      if (REQUIRED_PROFILES[i] != Profile.EMPTY) {
        return criteria.get(i);
      }
    }
  }

  private String relation(Profile profile) {
    double p = random.nextDouble();
    if (p < profile.supports) {
      return "supports";
    }
    return p < profile.supports + profile.contradicts ? "contradicts" : "neutral";
  }

  private String hex() {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  /** Counts of the records by where they link, relation and origin, for the report. */
  static Map<String, Integer> census(ClaimSpec claim) {
    Map<String, Boolean> required = new TreeMap<>();
    claim.criteria().forEach(k -> required.put(k.id(), k.required()));
    Map<String, Integer> counts = new TreeMap<>();
    for (EvidenceSpec e : claim.evidence()) {
      String link =
          e.criterionId() == null
              ? "claim-level"
              : required.get(e.criterionId()) ? "required" : "optional";
      counts.merge("link " + link, 1, Integer::sum);
      counts.merge("relation " + e.relation(), 1, Integer::sum);
      counts.merge("origin " + e.origin(), 1, Integer::sum);
    }
    return counts;
  }
}
