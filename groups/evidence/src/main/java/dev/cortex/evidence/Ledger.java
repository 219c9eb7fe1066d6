package dev.cortex.evidence;

import dev.cortex.evidence.Inputs.CriterionInput;
import dev.cortex.evidence.Records.Assumption;
import dev.cortex.evidence.Records.Claim;
import dev.cortex.evidence.Records.ClaimTallies;
import dev.cortex.evidence.Records.Criterion;
import dev.cortex.evidence.Records.Evidence;
import dev.cortex.evidence.Records.Tally;
import dev.cortex.evidence.Results.AddedEvidence;
import dev.cortex.evidence.Results.CreatedClaim;
import dev.cortex.evidence.Results.CriterionRef;
import dev.cortex.evidence.Results.Provenance;
import dev.cortex.evidence.Results.SavedReview;
import dev.cortex.evidence.Results.TrackedAssumption;
import dev.cortex.evidence.Results.UpdatedAssumption;
import dev.cortex.mcp.Json;
import dev.cortex.mcp.ToolException;
import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * The evidence ledger on the shared SQLite database: every method is one transaction, so a failure
 * writes nothing. Missing and out-of-scope references fail alike, with INVALID_REFERENCE.
 */
final class Ledger {
  private final Supplier<Database> database;
  private final Supplier<String> ids;

  Ledger(Supplier<Database> database) {
    this(database, () -> UUID.randomUUID().toString());
  }

  Ledger(Supplier<Database> database, Supplier<String> ids) {
    this.database = Objects.requireNonNull(database);
    this.ids = Objects.requireNonNull(ids);
  }

  CreatedClaim createClaim(
      String projectId, String statement, List<CriterionInput> criteria, Instant now) {
    return database
        .get()
        .write(
            c -> {
              ensureProject(c, projectId, now);
              String claimId = ids.get();
              Sql.update(
                  c,
                  "INSERT INTO evidence_claims (claim_id, project_id, statement, created_at) VALUES (?, ?, ?, ?)",
                  claimId,
                  projectId,
                  statement,
                  now);
              List<CriterionRef> refs = new ArrayList<>();
              int position = 0;
              for (CriterionInput criterion : criteria) {
                String criterionId = ids.get();
                Sql.update(
                    c,
                    "INSERT INTO evidence_criteria (criterion_id, claim_id, position, key, description, required) VALUES (?, ?, ?, ?, ?, ?)",
                    criterionId,
                    claimId,
                    position++,
                    criterion.key(),
                    criterion.description(),
                    criterion.isRequired());
                refs.add(new CriterionRef(criterion.key(), criterionId));
              }
              return new CreatedClaim(claimId, projectId, refs, "unverified", Sql.stamp(now));
            });
  }

  AddedEvidence addEvidence(Evidence evidence) {
    return database
        .get()
        .write(
            c -> {
              Claim claim = claim(c, evidence.projectId(), evidence.claimId());
              if (evidence.criterionId() != null) {
                requireCriterion(claim, evidence.criterionId());
              }
              String id = ids.get();
              Sql.update(
                  c,
                  """
          INSERT INTO evidence_records (evidence_id, project_id, claim_id, criterion_id, content_summary, relation,
            origin, source_type, source_ref, collector, artifact_digest, observed_at, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                  id,
                  evidence.projectId(),
                  evidence.claimId(),
                  evidence.criterionId(),
                  evidence.contentSummary(),
                  evidence.relation(),
                  evidence.origin(),
                  evidence.sourceType(),
                  evidence.sourceRef(),
                  evidence.collector(),
                  evidence.artifactDigest(),
                  evidence.observedAt(),
                  evidence.createdAt());
              return added(id, evidence);
            });
  }

  static AddedEvidence added(String id, Evidence e) {
    Provenance provenance =
        new Provenance(
            e.origin().wire(),
            e.sourceType().wire(),
            e.sourceRef(),
            e.collector(),
            Sql.stamp(e.observedAt()),
            e.artifactDigest());
    return new AddedEvidence(
        id,
        e.claimId(),
        e.criterionId(),
        e.relation().wire(),
        provenance,
        Results.UNVERIFIED_ORIGIN,
        Results.integrityStatus(e.artifactDigest()),
        Sql.stamp(e.createdAt()));
  }

  TrackedAssumption trackAssumption(
      String projectId, String statement, String context, Double confidence, Instant now) {
    return database
        .get()
        .write(
            c -> {
              ensureProject(c, projectId, now);
              String id = ids.get();
              Sql.update(
                  c,
                  """
          INSERT INTO evidence_assumptions (assumption_id, project_id, statement, context, confidence, status, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                  id,
                  projectId,
                  statement,
                  context,
                  confidence,
                  AssumptionStatus.UNVERIFIED,
                  now,
                  now);
              return new TrackedAssumption(
                  id, AssumptionStatus.UNVERIFIED.wire(), confidence, Sql.stamp(now));
            });
  }

  UpdatedAssumption updateAssumption(
      String projectId, String assumptionId, AssumptionStatus status, String reason, Instant now) {
    return database
        .get()
        .write(
            c -> {
              Assumption current = assumption(c, projectId, assumptionId);
              Integer last =
                  Sql.one(
                      c,
                      "SELECT MAX(position) FROM evidence_assumption_events WHERE assumption_id = ?",
                      rs -> rs.getObject(1) == null ? 0 : rs.getInt(1),
                      assumptionId);
              int position = (last == null ? 0 : last) + 1;
              Sql.update(
                  c,
                  """
          INSERT INTO evidence_assumption_events (event_id, project_id, assumption_id, position, previous_status, new_status, reason, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
                  ids.get(),
                  projectId,
                  assumptionId,
                  position,
                  current.status(),
                  status,
                  reason,
                  now);
              Sql.update(
                  c,
                  "UPDATE evidence_assumptions SET status = ?, updated_at = ? WHERE assumption_id = ?",
                  status,
                  now,
                  assumptionId);
              return new UpdatedAssumption(
                  assumptionId, current.status().wire(), status.wire(), position, Sql.stamp(now));
            });
  }

  /** Sets a project's policy, creating the project if needed. For humans (the CLI), not agents. */
  Policy provision(String projectId, Policy policy, Instant now) {
    return database
        .get()
        .write(
            c -> {
              ensureProject(c, projectId, now);
              Sql.update(
                  c,
                  "UPDATE evidence_projects SET policy = ? WHERE project_id = ?",
                  policy.version(),
                  projectId);
              return policy;
            });
  }

  SavedReview reviewClaim(String projectId, String claimId, Instant now) {
    return database
        .get()
        .write(
            c -> {
              Policy policy = policy(c, projectId);
              ClaimTallies target = tallies(c, claim(c, projectId, claimId));
              ReviewModel.Outcome outcome = Reviewer.reviewClaim(policy, target);
              return save(c, projectId, "claim", claimId, null, List.of(), List.of(), outcome, now);
            });
  }

  SavedReview reviewDecision(
      String projectId,
      String decision,
      List<String> claimIds,
      List<String> assumptionIds,
      Instant now) {
    return database
        .get()
        .write(
            c -> {
              Policy policy = policy(c, projectId);
              List<ClaimTallies> claims = new ArrayList<>();
              for (String claimId : claimIds) {
                claims.add(tallies(c, claim(c, projectId, claimId)));
              }
              List<Assumption> assumptions = new ArrayList<>();
              for (String assumptionId : assumptionIds) {
                assumptions.add(assumption(c, projectId, assumptionId));
              }
              ReviewModel.Outcome outcome = Reviewer.reviewDecision(policy, claims, assumptions);
              return save(
                  c, projectId, "decision", null, decision, claimIds, assumptionIds, outcome, now);
            });
  }

  private SavedReview save(
      Connection c,
      String projectId,
      String targetType,
      String targetId,
      String decision,
      List<String> claimIds,
      List<String> assumptionIds,
      ReviewModel.Outcome outcome,
      Instant now)
      throws SQLException {
    SavedReview review =
        new SavedReview(
            ids.get(),
            projectId,
            targetType,
            targetId,
            decision,
            List.copyOf(claimIds),
            List.copyOf(assumptionIds),
            outcome.policy().version(),
            outcome.status(),
            outcome.claimEvaluations(),
            outcome.findings(),
            Sql.stamp(now));
    Sql.update(
        c,
        """
        INSERT INTO evidence_reviews (review_id, project_id, target_type, target_id, decision, status, policy_version, snapshot, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        review.reviewId(),
        projectId,
        targetType,
        targetId,
        decision,
        review.status(),
        review.policyVersion(),
        Json.write(review),
        now);
    return review;
  }

  // ---- reads inside a transaction

  private static void ensureProject(Connection c, String projectId, Instant now)
      throws SQLException {
    Sql.update(
        c,
        "INSERT OR IGNORE INTO evidence_projects (project_id, policy, created_at) VALUES (?, ?, ?)",
        projectId,
        Policy.STRICT_1.version(),
        now);
  }

  private static Policy policy(Connection c, String projectId) throws SQLException {
    String version =
        Sql.one(
            c,
            "SELECT policy FROM evidence_projects WHERE project_id = ?",
            rs -> rs.getString(1),
            projectId);
    if (version == null) {
      throw ToolException.invalidReference(
          "No project '"
              + projectId
              + "' exists yet: create a claim or track an assumption in it first.");
    }
    return Policy.ofVersion(version);
  }

  /** Fails with INVALID_REFERENCE unless {@code criterionId} is one of the claim's criteria. */
  static void requireCriterion(Claim claim, String criterionId) {
    if (claim.criteria().stream().noneMatch(k -> k.id().equals(criterionId))) {
      throw ToolException.invalidReference(
          "No criterion '"
              + criterionId
              + "' on claim '"
              + claim.id()
              + "' in project '"
              + claim.projectId()
              + "'.");
    }
  }

  static Claim claim(Connection c, String projectId, String claimId) throws SQLException {
    Claim claim =
        Sql.one(
            c,
            "SELECT claim_id, project_id, statement, created_at FROM evidence_claims WHERE claim_id = ? AND project_id = ?",
            rs ->
                new Claim(
                    rs.getString(1),
                    rs.getString(2),
                    rs.getString(3),
                    List.of(),
                    Sql.instant(rs.getString(4))),
            claimId,
            projectId);
    if (claim == null) {
      throw ToolException.invalidReference(
          "No claim '" + claimId + "' in project '" + projectId + "'.");
    }
    List<Criterion> criteria =
        Sql.query(
            c,
            "SELECT criterion_id, key, description, required FROM evidence_criteria WHERE claim_id = ? ORDER BY position",
            rs ->
                new Criterion(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4) != 0),
            claimId);
    return new Claim(claim.id(), claim.projectId(), claim.statement(), criteria, claim.createdAt());
  }

  /** Counts and first IDs per criterion, relation and origin of one claim's evidence (?1). */
  static final String TALLY_SQL =
      """
            SELECT criterion_id, relation, origin, COUNT(*),
              (SELECT group_concat(evidence_id) FROM (
                 SELECT evidence_id FROM evidence_records f
                 WHERE f.claim_id = ?1 AND f.criterion_id IS e.criterion_id
                   AND f.relation = e.relation AND f.origin = e.origin
                 ORDER BY f.evidence_id LIMIT 3))
            FROM evidence_records e
            WHERE e.claim_id = ?1
            GROUP BY criterion_id, relation, origin""";

  /**
   * The claim's evidence counted per criterion, relation and origin, with the three smallest IDs of
   * each group: an index-only aggregate instead of reading every record.
   */
  static ClaimTallies tallies(Connection c, Claim claim) throws SQLException {
    List<Tally> tallies =
        Sql.query(
            c,
            TALLY_SQL,
            rs ->
                Tally.of(
                    new Tally.Key(
                        rs.getString(1),
                        Wire.parse(Relation.class, rs.getString(2)),
                        Wire.parse(Origin.class, rs.getString(3))),
                    rs.getInt(4),
                    List.of(rs.getString(5).split(","))),
            claim.id());
    return new ClaimTallies(claim, tallies);
  }

  static Evidence evidence(ResultSet rs) throws SQLException {
    return new Evidence(
        rs.getString("evidence_id"),
        rs.getString("project_id"),
        rs.getString("claim_id"),
        rs.getString("criterion_id"),
        rs.getString("content_summary"),
        Wire.parse(Relation.class, rs.getString("relation")),
        Wire.parse(Origin.class, rs.getString("origin")),
        Wire.parse(SourceType.class, rs.getString("source_type")),
        rs.getString("source_ref"),
        rs.getString("collector"),
        rs.getString("artifact_digest"),
        Sql.instant(rs.getString("observed_at")),
        Sql.instant(rs.getString("created_at")));
  }

  static Assumption assumption(Connection c, String projectId, String assumptionId)
      throws SQLException {
    Assumption assumption =
        Sql.one(
            c,
            "SELECT * FROM evidence_assumptions WHERE assumption_id = ? AND project_id = ?",
            Ledger::assumption,
            assumptionId,
            projectId);
    if (assumption == null) {
      throw ToolException.invalidReference(
          "No assumption '" + assumptionId + "' in project '" + projectId + "'.");
    }
    return assumption;
  }

  static Assumption assumption(ResultSet rs) throws SQLException {
    return new Assumption(
        rs.getString("assumption_id"),
        rs.getString("project_id"),
        rs.getString("statement"),
        rs.getString("context"),
        Sql.nullableDouble(rs, "confidence"),
        Wire.parse(AssumptionStatus.class, rs.getString("status")),
        Sql.instant(rs.getString("created_at")),
        Sql.instant(rs.getString("updated_at")));
  }

  Database database() {
    return database.get();
  }
}
