package dev.cortex.evidence;

import static dev.cortex.evidence.LedgerFixture.required;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.evidence.LedgerFixture.ManualClock;
import dev.cortex.evidence.Records.ClaimTallies;
import dev.cortex.evidence.Records.ClaimWithEvidence;
import dev.cortex.evidence.Records.Tally;
import dev.cortex.evidence.Results.CreatedClaim;
import dev.cortex.storage.Area;
import dev.cortex.storage.Database;
import dev.cortex.storage.Migration;
import dev.cortex.storage.Sql;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The tallies every evidence insert keeps: always the same as counting the records afresh, on a new
 * database and after migrating one from each earlier version, and reviews from them identical to
 * reviews of the records.
 */
class TalliesTest {
  static final Instant T0 = Instant.parse("2026-11-05T00:00:00Z");

  @TempDir Path dir;

  final ManualClock clock = new ManualClock(T0);

  @Test
  void addEvidence_randomRecords_talliesEqualCountingTheRecords() {
    try (Database db = new Database(dir, List.of(EvidenceSchema.area()), clock)) {
      Ledger ledger = new Ledger(() -> db);
      CreatedClaim claim = claim(ledger);
      Random random = new Random(7);
      for (int i = 0; i < 600; i++) {
        ledger.addEvidence(randomEvidence(random, claim));
      }

      assertSameAsRecords(db, claim.claimId());
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3})
  void open_databaseWithEvidenceAtAnEarlierVersion_fillsTalliesAndReviewsAsBefore(int version) {
    Migration[] earlier = Arrays.copyOf(migrations(), version);
    Random random = new Random(version);
    String claimId;
    try (Database old = new Database(dir, List.of(Area.of(EvidenceSchema.AREA, earlier)), clock)) {
      Ledger ledger = new Ledger(() -> old);
      CreatedClaim claim = claim(ledger);
      claimId = claim.claimId();
      for (int i = 0; i < 400; i++) {
        insertAsEarlierVersionsDid(old, randomEvidence(random, claim));
      }
    }

    try (Database db = new Database(dir, List.of(EvidenceSchema.area()), clock)) {
      assertSameAsRecords(db, claimId);
      Ledger ledger = new Ledger(() -> db);
      CreatedClaim claim = claimOf(db, claimId);
      for (int i = 0; i < 100; i++) {
        ledger.addEvidence(randomEvidence(random, claim));
      }
      assertSameAsRecords(db, claimId);
    }
  }

  private static Migration[] migrations() {
    return new Migration[] {
      EvidenceSchema.V1, EvidenceSchema.V2, EvidenceSchema.V3, EvidenceSchema.V4
    };
  }

  private CreatedClaim claim(Ledger ledger) {
    List<Inputs.CriterionInput> criteria = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      criteria.add(required("k" + i));
    }
    return ledger.createClaim("p", "a claim", criteria, clock.instant());
  }

  private static CreatedClaim claimOf(Database db, String claimId) {
    return db.read(
        c -> {
          Records.Claim claim = Ledger.claim(c, "p", claimId);
          return new CreatedClaim(
              claimId,
              "p",
              claim.criteria().stream()
                  .map(k -> new Results.CriterionRef(k.key(), k.id()))
                  .toList(),
              "unverified",
              Sql.stamp(T0));
        });
  }

  /** A record on a random criterion (or the claim), with a random relation, origin and ID. */
  private static Records.Evidence randomEvidence(Random random, CreatedClaim claim) {
    int criterion = random.nextInt(claim.criteria().size() + 1);
    Relation[] relations = Relation.values();
    Origin[] origins = Origin.values();
    return new Records.Evidence(
        UUID.randomUUID().toString(),
        "p",
        claim.claimId(),
        criterion == claim.criteria().size() ? null : claim.criteria().get(criterion).criterionId(),
        "observed",
        relations[random.nextInt(relations.length)],
        origins[random.nextInt(origins.length)],
        SourceType.TEST,
        null,
        null,
        null,
        null,
        T0);
  }

  /** The insert of versions 1 to 3: the record alone. */
  private static void insertAsEarlierVersionsDid(Database db, Records.Evidence e) {
    db.write(
        c ->
            Sql.update(
                c,
                "INSERT INTO evidence_records (evidence_id, project_id, claim_id, criterion_id,"
                    + " content_summary, relation, origin, source_type, created_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                e.id(),
                e.projectId(),
                e.claimId(),
                e.criterionId(),
                e.contentSummary(),
                e.relation(),
                e.origin(),
                e.sourceType(),
                e.createdAt()));
  }

  private static void assertSameAsRecords(Database db, String claimId) {
    ClaimWithEvidence records =
        db.read(
            c ->
                new ClaimWithEvidence(
                    Ledger.claim(c, "p", claimId),
                    Sql.query(
                        c,
                        "SELECT * FROM evidence_records WHERE claim_id = ?",
                        Ledger::evidence,
                        claimId)));
    ClaimTallies stored = db.read(c -> Ledger.tallies(c, records.claim()));

    assertThat(sorted(stored.tallies())).isEqualTo(sorted(records.tallies().tallies()));
    for (Policy policy : List.of(Policy.STRICT_1, Policy.PROVISIONAL_1)) {
      ReviewModel.Outcome fromTallies = Reviewer.reviewClaim(policy, stored);
      ReviewModel.Outcome fromRecords = Reviewer.reviewClaim(policy, records);
      assertThat(fromTallies.status()).isEqualTo(fromRecords.status());
      assertThat(fromTallies.claimEvaluations()).isEqualTo(fromRecords.claimEvaluations());
      assertThat(fromTallies.findings()).isEqualTo(fromRecords.findings());
    }
  }

  private static List<Tally> sorted(List<Tally> tallies) {
    return tallies.stream()
        .sorted(
            Comparator.comparing((Tally t) -> String.valueOf(t.criterionId()))
                .thenComparing(Tally::relation)
                .thenComparing(Tally::origin))
        .toList();
  }
}
