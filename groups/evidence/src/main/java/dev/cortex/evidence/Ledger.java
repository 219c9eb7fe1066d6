package dev.cortex.evidence;

import dev.cortex.base.Json;
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
import dev.cortex.mcp.tool.ToolException;
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

  /** The claims and tallies reviews read, while the database is unchanged. */
  private final TallyCache reviewed = new TallyCache();

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
              requireLink(c, evidence.projectId(), evidence.claimId(), evidence.criterionId());
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
              Sql.update(
                  c,
                  TALLY_UPSERT,
                  evidence.claimId(),
                  evidence.criterionId() == null ? CLAIM_AS_A_WHOLE : evidence.criterionId(),
                  evidence.relation(),
                  evidence.origin(),
                  id);
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
              ClaimTallies target = reviewed.tallies(c, projectId, claimId);
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
                claims.add(reviewed.tallies(c, projectId, claimId));
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
    int saved =
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
    reviewed.wrote(c, saved);
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

  /**
   * Fails with INVALID_REFERENCE unless the claim is the project's and {@code criterionId} (when
   * given) one of its criteria: two index lookups, without reading the claim's criteria.
   */
  private static void requireLink(
      Connection c, String projectId, String claimId, String criterionId) throws SQLException {
    if (Sql.one(
            c,
            "SELECT 1 FROM evidence_claims WHERE claim_id = ? AND project_id = ?",
            rs -> 1,
            claimId,
            projectId)
        == null) {
      throw ToolException.invalidReference(
          "No claim '" + claimId + "' in project '" + projectId + "'.");
    }
    if (criterionId != null
        && Sql.one(
                c,
                "SELECT 1 FROM evidence_criteria WHERE criterion_id = ? AND claim_id = ?",
                rs -> 1,
                criterionId,
                claimId)
            == null) {
      throw noCriterion(projectId, claimId, criterionId);
    }
  }

  private static ToolException noCriterion(String projectId, String claimId, String criterionId) {
    return ToolException.invalidReference(
        "No criterion '"
            + criterionId
            + "' on claim '"
            + claimId
            + "' in project '"
            + projectId
            + "'.");
  }

  /** Fails with INVALID_REFERENCE unless {@code criterionId} is one of the claim's criteria. */
  static void requireCriterion(Claim claim, String criterionId) {
    if (claim.criteria().stream().noneMatch(k -> k.id().equals(criterionId))) {
      throw noCriterion(claim.projectId(), claim.id(), criterionId);
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
    return withCriteria(c, claim);
  }

  /** The claim with its criteria, in their order, read from the database. */
  static Claim withCriteria(Connection c, Claim claim) throws SQLException {
    List<Criterion> criteria =
        Sql.query(
            c,
            "SELECT criterion_id, key, description, required FROM evidence_criteria WHERE claim_id = ? ORDER BY position",
            rs ->
                new Criterion(rs.getString(1), rs.getString(2), rs.getString(3), rs.getInt(4) != 0),
            claim.id());
    return new Claim(claim.id(), claim.projectId(), claim.statement(), criteria, claim.createdAt());
  }

  /** The tallies' criterion of evidence linked to the claim as a whole. */
  static final String CLAIM_AS_A_WHOLE = "";

  /**
   * Counts one more record (?5) of a claim (?1), criterion (?2), relation (?3) and origin (?4),
   * keeping the three smallest IDs. Every right-hand side reads the row as it was.
   */
  static final String TALLY_UPSERT =
      """
      INSERT INTO evidence_tallies (claim_id, criterion_id, relation, origin, count, first_id)
      VALUES (?1, ?2, ?3, ?4, 1, ?5)
      ON CONFLICT (claim_id, criterion_id, relation, origin) DO UPDATE SET
        count = count + 1,
        first_id = MIN(first_id, excluded.first_id),
        second_id = CASE
          WHEN excluded.first_id < first_id THEN first_id
          WHEN second_id IS NULL OR excluded.first_id < second_id THEN excluded.first_id
          ELSE second_id END,
        third_id = CASE
          WHEN second_id IS NULL THEN NULL
          WHEN excluded.first_id < second_id THEN second_id
          WHEN third_id IS NULL OR excluded.first_id < third_id THEN excluded.first_id
          ELSE third_id END""";

  /**
   * The tallies of one claim's evidence (?1), a few per criterion, as one text of lines {@code
   * criterion relation origin count id[,id[,id]]}: SQLite joins them in one step, so reading a
   * claim's few hundred tallies costs one row, not a JDBC round of calls per tally.
   */
  static final String TALLY_SQL =
      """
      SELECT group_concat(criterion_id || ' ' || relation || ' ' || origin || ' ' || count || ' '
          || first_id || COALESCE(',' || second_id, '') || COALESCE(',' || third_id, ''),
        char(10))
      FROM evidence_tallies WHERE claim_id = ?1""";

  /**
   * The claim's evidence counted per criterion, relation and origin, with the three smallest IDs of
   * each group, as every insert keeps them: reading them costs the same for 10 records or 10,000.
   */
  static ClaimTallies tallies(Connection c, Claim claim) throws SQLException {
    String text = Sql.one(c, TALLY_SQL, rs -> rs.getString(1), claim.id());
    List<Tally> tallies = new ArrayList<>();
    String criterion = null;
    for (int start = 0; text != null && start < text.length(); ) {
      int end = text.indexOf('\n', start);
      end = end < 0 ? text.length() : end;
      int space = text.indexOf(' ', start);
      // Lines come in key order, a criterion's lines together: its ID is read once.
      if (criterion == null
          || criterion.length() != space - start
          || !text.startsWith(criterion, start)) {
        criterion = text.substring(start, space);
      }
      tallies.add(tally(text, criterion, space, end));
      start = end + 1;
    }
    return new ClaimTallies(claim, tallies);
  }

  private static final Relation[] RELATIONS = Relation.values();
  private static final String[] RELATION_SPELLINGS = WireName.values(Relation.class);
  private static final Origin[] ORIGINS = Origin.values();
  private static final String[] ORIGIN_SPELLINGS = WireName.values(Origin.class);

  /**
   * The rest of one line {@code criterion relation origin count ids} of {@link #TALLY_SQL}'s text,
   * from the space after the criterion ({@code at}) to {@code end}.
   */
  private static Tally tally(String text, String criterion, int at, int end) {
    int relationEnd = text.indexOf(' ', at + 1);
    int originEnd = text.indexOf(' ', relationEnd + 1);
    int countEnd = text.indexOf(' ', originEnd + 1);
    String[] ids = new String[Tally.KEPT];
    int kept = 0;
    for (int from = countEnd + 1; from < end && kept < ids.length; ) {
      int comma = text.indexOf(',', from);
      int to = comma < 0 || comma > end ? end : comma;
      ids[kept++] = text.substring(from, to);
      from = to + 1;
    }
    return new Tally(
        criterion.isEmpty() ? null : criterion,
        spelled(Relation.class, RELATIONS, RELATION_SPELLINGS, text, at + 1, relationEnd),
        spelled(Origin.class, ORIGINS, ORIGIN_SPELLINGS, text, relationEnd + 1, originEnd),
        Integer.parseInt(text, originEnd + 1, countEnd, 10),
        switch (kept) {
          case 0 -> List.of();
          case 1 -> List.of(ids[0]);
          case 2 -> List.of(ids[0], ids[1]);
          default -> List.of(ids);
        });
  }

  /** The constant spelled by {@code text} from {@code from} to {@code to}, as WireName.parse. */
  private static <E extends Enum<E> & WireName> E spelled(
      Class<E> type, E[] constants, String[] spellings, String text, int from, int to) {
    for (int i = 0; i < constants.length; i++) {
      if (spellings[i].length() == to - from && text.startsWith(spellings[i], from)) {
        return constants[i];
      }
    }
    return WireName.parse(type, text.substring(from, to));
  }

  static Evidence evidence(ResultSet rs) throws SQLException {
    return new Evidence(
        rs.getString("evidence_id"),
        rs.getString("project_id"),
        rs.getString("claim_id"),
        rs.getString("criterion_id"),
        rs.getString("content_summary"),
        WireName.parse(Relation.class, rs.getString("relation")),
        WireName.parse(Origin.class, rs.getString("origin")),
        WireName.parse(SourceType.class, rs.getString("source_type")),
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
        WireName.parse(AssumptionStatus.class, rs.getString("status")),
        Sql.instant(rs.getString("created_at")),
        Sql.instant(rs.getString("updated_at")));
  }

  Database database() {
    return database.get();
  }
}
