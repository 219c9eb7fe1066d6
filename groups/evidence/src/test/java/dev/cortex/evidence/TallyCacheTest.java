package dev.cortex.evidence;

import static dev.cortex.evidence.LedgerFixture.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.ErrorCodes;
import dev.cortex.evidence.LedgerFixture.ManualClock;
import dev.cortex.evidence.Records.ClaimTallies;
import dev.cortex.evidence.Records.Evidence;
import dev.cortex.evidence.Results.CreatedClaim;
import dev.cortex.evidence.Results.SavedReview;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ledger keeps the claims and tallies its reviews read while the database is unchanged: every
 * review concludes what a ledger that never reviewed before concludes, whatever changed in between
 * and through whichever connection.
 */
class TallyCacheTest {
  static final Instant T0 = Instant.parse("2026-11-05T00:00:00Z");

  @TempDir Path dir;

  final ManualClock clock = new ManualClock(T0);

  @Test
  void reviewClaim_afterEachInsertThroughTheSameLedger_seesTheInsert() {
    try (Database db = database()) {
      Ledger ledger = new Ledger(() -> db);
      CreatedClaim claim = claim(ledger, "k0", "k1");
      ledger.provision("p", Policy.PROVISIONAL_1, T0);
      assertThat(ledger.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("unverified");

      ledger.addEvidence(record(claim, 0, Relation.SUPPORTS, Origin.USER_ATTESTED));
      assertThat(ledger.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("unverified");
      ledger.addEvidence(record(claim, 1, Relation.SUPPORTS, Origin.TOOL_OUTPUT_RECORDED));
      assertThat(ledger.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("verified");
      ledger.addEvidence(record(claim, 1, Relation.CONTRADICTS, Origin.USER_ATTESTED));
      SavedReview last = ledger.reviewClaim("p", claim.claimId(), T0);

      assertThat(last.status()).isEqualTo("contradicted");
      assertSameAsAFreshLedger(db, last, claim);
    }
  }

  @Test
  void reviewClaim_repeatedWithoutChanges_concludesTheSameEachTime() {
    try (Database db = database()) {
      Ledger ledger = new Ledger(() -> db);
      CreatedClaim claim = claim(ledger, "k0", "k1", "k2");
      Random random = new Random(3);
      for (int i = 0; i < 200; i++) {
        ledger.addEvidence(random(random, claim));
      }
      for (Policy policy : List.of(Policy.STRICT_1, Policy.PROVISIONAL_1)) {
        ledger.provision("p", policy, T0);
        SavedReview first = ledger.reviewClaim("p", claim.claimId(), T0);
        for (int i = 0; i < 3; i++) {
          SavedReview again = ledger.reviewClaim("p", claim.claimId(), T0);
          assertThat(again.status()).isEqualTo(first.status());
          assertThat(again.claimEvaluations()).isEqualTo(first.claimEvaluations());
          assertThat(again.findings()).isEqualTo(first.findings());
        }
        assertSameAsAFreshLedger(db, first, claim);
      }
    }
  }

  @Test
  void reviewClaim_afterAnInsertByAnotherLedgerOnTheSameDatabase_seesTheInsert() {
    try (Database db = database()) {
      Ledger reviewer = new Ledger(() -> db);
      Ledger writer = new Ledger(() -> db);
      CreatedClaim claim = claim(writer, "k0");
      reviewer.provision("p", Policy.PROVISIONAL_1, T0);
      assertThat(reviewer.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("unverified");

      writer.addEvidence(record(claim, 0, Relation.SUPPORTS, Origin.USER_ATTESTED));

      assertThat(reviewer.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("verified");
    }
  }

  @Test
  void reviewClaim_afterAnInsertThroughAnotherConnection_seesTheInsert() {
    try (Database reviewing = database();
        Database other = database()) {
      Ledger reviewer = new Ledger(() -> reviewing);
      CreatedClaim claim = claim(reviewer, "k0");
      reviewer.provision("p", Policy.PROVISIONAL_1, T0);
      assertThat(reviewer.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("unverified");

      new Ledger(() -> other)
          .addEvidence(record(claim, 0, Relation.CONTRADICTS, Origin.TOOL_OUTPUT_RECORDED));

      SavedReview review = reviewer.reviewClaim("p", claim.claimId(), T0);
      assertThat(review.status()).isEqualTo("contradicted");
      assertThat(review.findings())
          .anyMatch(f -> f.ruleId() == ReviewModel.Rule.CONTRADICTORY_EVIDENCE);
    }
  }

  @Test
  void reviewClaim_afterATallyChangedBySqlOnTheSameConnection_seesTheChange() {
    try (Database db = database()) {
      Ledger ledger = new Ledger(() -> db);
      CreatedClaim claim = claim(ledger, "k0");
      Evidence support = record(claim, 0, Relation.SUPPORTS, Origin.USER_ATTESTED);
      ledger.addEvidence(support);
      ledger.provision("p", Policy.PROVISIONAL_1, T0);
      assertThat(ledger.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("verified");

      db.write(
          c ->
              Sql.update(
                  c,
                  "UPDATE evidence_tallies SET relation = 'contradicts' WHERE claim_id = ?",
                  claim.claimId()));

      assertThat(ledger.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("contradicted");
    }
  }

  @Test
  void reviewClaim_afterTheDatabaseIsReopened_readsTheReopenedOne() {
    Database[] current = {database()};
    Ledger ledger = new Ledger(() -> current[0]);
    CreatedClaim claim = claim(ledger, "k0");
    ledger.provision("p", Policy.PROVISIONAL_1, T0);
    assertThat(ledger.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("unverified");
    current[0].close();

    try (Database other = database()) {
      new Ledger(() -> other)
          .addEvidence(record(claim, 0, Relation.SUPPORTS, Origin.USER_ATTESTED));
    }
    current[0] = database();
    try {
      assertThat(ledger.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("verified");
    } finally {
      current[0].close();
    }
  }

  @Test
  void reviewClaim_cachedClaimOfAnotherProject_isStillAnInvalidReference() {
    try (Database db = database()) {
      Ledger ledger = new Ledger(() -> db);
      CreatedClaim claim = claim(ledger, "k0");
      ledger.createClaim("q", "another project's claim", List.of(required("k")), T0);
      ledger.reviewClaim("p", claim.claimId(), T0);

      assertThatThrownBy(() -> ledger.reviewClaim("q", claim.claimId(), T0))
          .isInstanceOfSatisfying(
              ToolException.class,
              e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_REFERENCE));
    }
  }

  @Test
  void reviewDecision_afterAnInsert_seesTheInsert() {
    try (Database db = database()) {
      Ledger ledger = new Ledger(() -> db);
      CreatedClaim claim = claim(ledger, "k0");
      ledger.provision("p", Policy.PROVISIONAL_1, T0);
      List<String> claims = List.of(claim.claimId());
      assertThat(ledger.reviewDecision("p", "ship", claims, List.of(), T0).status())
          .isEqualTo("warning");

      ledger.addEvidence(record(claim, 0, Relation.CONTRADICTS, Origin.USER_ATTESTED));

      assertThat(ledger.reviewDecision("p", "ship", claims, List.of(), T0).status())
          .isEqualTo("blocked_recommendation");
      assertThat(ledger.reviewClaim("p", claim.claimId(), T0).status()).isEqualTo("contradicted");
    }
  }

  private Database database() {
    return new Database(dir, List.of(EvidenceSchema.area()), clock);
  }

  private static CreatedClaim claim(Ledger ledger, String... keys) {
    List<Inputs.CriterionInput> criteria = new ArrayList<>();
    for (String key : keys) {
      criteria.add(required(key));
    }
    return ledger.createClaim("p", "a claim", criteria, T0);
  }

  private static Evidence record(
      CreatedClaim claim, int criterion, Relation relation, Origin origin) {
    return new Evidence(
        UUID.randomUUID().toString(),
        "p",
        claim.claimId(),
        claim.criteria().get(criterion).criterionId(),
        "observed",
        relation,
        origin,
        SourceType.TEST,
        null,
        null,
        null,
        null,
        T0);
  }

  /** A record on a random criterion (or the claim), with a random relation and origin. */
  private static Evidence random(Random random, CreatedClaim claim) {
    int criterion = random.nextInt(claim.criteria().size() + 1);
    Relation[] relations = Relation.values();
    Origin[] origins = Origin.values();
    return new Evidence(
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

  /** What a ledger that never reviewed before concludes on the same database, and the tallies. */
  private static void assertSameAsAFreshLedger(
      Database db, SavedReview review, CreatedClaim claim) {
    SavedReview fresh = new Ledger(() -> db).reviewClaim("p", claim.claimId(), T0);
    assertThat(review.status()).isEqualTo(fresh.status());
    assertThat(review.claimEvaluations()).isEqualTo(fresh.claimEvaluations());
    assertThat(review.findings()).isEqualTo(fresh.findings());
    ClaimTallies stored = db.read(c -> Ledger.tallies(c, Ledger.claim(c, "p", claim.claimId())));
    Policy policy = Policy.ofVersion(review.policyVersion());
    assertThat(Reviewer.reviewClaim(policy, stored).findings()).isEqualTo(review.findings());
  }
}
