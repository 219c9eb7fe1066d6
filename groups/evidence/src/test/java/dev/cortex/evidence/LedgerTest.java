package dev.cortex.evidence;

import static dev.cortex.evidence.LedgerFixture.context;
import static dev.cortex.evidence.LedgerFixture.evidence;
import static dev.cortex.evidence.LedgerFixture.hasTable;
import static dev.cortex.evidence.LedgerFixture.ids;
import static dev.cortex.evidence.LedgerFixture.migrations;
import static dev.cortex.evidence.LedgerFixture.optional;
import static dev.cortex.evidence.LedgerFixture.required;
import static dev.cortex.evidence.LedgerFixture.rowCounts;
import static dev.cortex.evidence.LedgerFixture.strings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.ErrorCodes;
import dev.cortex.base.Json;
import dev.cortex.evidence.LedgerFixture.Ids;
import dev.cortex.evidence.LedgerFixture.ManualClock;
import dev.cortex.evidence.Results.CreatedClaim;
import dev.cortex.evidence.Results.SavedReview;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.storage.Area;
import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import dev.cortex.storage.StorageException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;

/** The ledger on temporary SQLite databases: migrations, retrieval, isolation, atomic writes. */
class LedgerTest {
  static final Instant T0 = Instant.parse("2026-11-05T00:00:00Z");
  static final Duration SECOND = Duration.ofSeconds(1);

  @TempDir Path dir;

  final ManualClock clock = new ManualClock(T0);
  final Ids ids = new Ids();
  Database db;
  Ledger ledger;

  @BeforeEach
  void open() {
    db = new Database(dir, List.of(EvidenceSchema.area()), clock);
    ledger = new Ledger(() -> db, ids);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private CreatedClaim claim(String projectId, String... requiredKeys) {
    List<Inputs.CriterionInput> criteria = new ArrayList<>();
    for (String key : requiredKeys) {
      criteria.add(required(key));
    }
    return ledger.createClaim(projectId, "claim in " + projectId, criteria, clock.instant());
  }

  private static String criterion(CreatedClaim claim, int index) {
    return claim.criteria().get(index).criterionId();
  }

  // ---- migrations

  @Test
  void open_emptyDirectory_migratesEvidenceAreaToTheLatestVersion() {
    assertThat(rowCounts(db))
        .containsOnlyKeys(LedgerFixture.TABLES)
        .allSatisfy((table, rows) -> assertThat(rows).as(table).isZero());

    assertThat(migrations(db)).containsExactly("1@" + T0, "2@" + T0, "3@" + T0, "4@" + T0);
    assertThat(hasTable(db, "evidence_test_runs")).isTrue();
    assertThat(hasTable(db, "evidence_tallies")).isTrue();
    assertThat(hasIndex(db, "evidence_records_tally")).isFalse();
    assertThat(hasIndex(db, "evidence_records_claim")).isFalse();
  }

  @Test
  void open_databaseAtVersion1_appliesLaterVersionsAndKeepsClaims() {
    Path oldDir = dir.resolve("v1");
    String claimId;
    try (Database v1 =
        new Database(oldDir, List.of(Area.of("evidence", EvidenceSchema.V1)), clock)) {
      claimId =
          new Ledger(() -> v1, ids)
              .createClaim("p", "kept", List.of(required("k")), clock.instant())
              .claimId();
      assertThat(migrations(v1)).containsExactly("1@" + T0);
      assertThat(hasTable(v1, "evidence_test_runs")).isFalse();
    }
    Instant later = clock.advance(Duration.ofDays(1));

    try (Database v2 = new Database(oldDir, List.of(EvidenceSchema.area()), clock)) {
      assertThat(migrations(v2))
          .containsExactly("1@" + T0, "2@" + later, "3@" + later, "4@" + later);
      assertThat(hasTable(v2, "evidence_test_runs")).isTrue();
      JsonNode context = context(v2, "p", 20);
      assertThat(ids(context, "claims", "claim_id")).containsExactly(claimId);
      assertThat(context.path("claims").get(0).path("statement").asString()).isEqualTo("kept");
      assertThat(ids(context.path("claims").get(0), "criteria", "key")).containsExactly("k");
      assertThat(context.path("test_runs").isEmpty()).isTrue();
    }
  }

  // ---- bounded retrieval

  @Test
  void context_25ClaimsWithLimit20_returnsThe20NewestNewestFirst() {
    List<String> created = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      created.add(claim("p", "k").claimId());
      clock.advance(SECOND);
    }
    List<String> newestFirst = new ArrayList<>(created.subList(5, 25));
    java.util.Collections.reverse(newestFirst);

    assertThat(ids(context(db, "p", 20), "claims", "claim_id"))
        .containsExactlyElementsOf(newestFirst);
    assertThat(ids(context(db, "p", 3), "claims", "claim_id"))
        .containsExactlyElementsOf(newestFirst.subList(0, 3));
  }

  @Test
  void context_equalTimestamps_ordersByDescendingId() {
    ids.queue("c-b", "k-1", "c-d", "k-2", "c-a", "k-3");
    claim("p", "k");
    claim("p", "k");
    claim("p", "k");
    clock.advance(SECOND);
    ids.queue("c-0", "k-4");
    claim("p", "k");

    assertThat(ids(context(db, "p", 20), "claims", "claim_id"))
        .as("newer first, then descending ID among equal times")
        .containsExactly("c-0", "c-d", "c-b", "c-a");
  }

  @Test
  void context_equalTimestamps_ordersEvidenceAssumptionsAndReviewsByDescendingId() {
    CreatedClaim claim = claim("p", "k");
    for (String id : List.of("e-2", "e-9", "e-5")) {
      ids.queue(id);
      ledger.addEvidence(
          evidence("p", claim.claimId(), null, Relation.SUPPORTS, Origin.AGENT_REPORTED, T0));
    }
    for (String id : List.of("a-1", "a-3", "a-2")) {
      ids.queue(id);
      ledger.trackAssumption("p", "assumed " + id, null, null, T0);
    }
    for (String id : List.of("r-7", "r-8", "r-6")) {
      ids.queue(id);
      ledger.reviewClaim("p", claim.claimId(), T0);
    }

    JsonNode context = context(db, "p", 20);
    assertThat(ids(context, "evidence", "evidence_id")).containsExactly("e-9", "e-5", "e-2");
    assertThat(ids(context, "assumptions", "assumption_id")).containsExactly("a-3", "a-2", "a-1");
    assertThat(ids(context, "reviews", "review_id")).containsExactly("r-8", "r-7", "r-6");
  }

  // ---- isolation

  @Test
  void context_ofOneProject_neverShowsAnotherProjectsRecords() {
    CreatedClaim a = claim("project-a", "k");
    ledger.addEvidence(
        evidence(
            "project-a",
            a.claimId(),
            criterion(a, 0),
            Relation.SUPPORTS,
            Origin.AGENT_REPORTED,
            T0));
    String assumption =
        ledger.trackAssumption("project-a", "assumed", null, 0.5, T0).assumptionId();
    ledger.updateAssumption("project-a", assumption, AssumptionStatus.SUPPORTED, "seen", T0);
    ledger.reviewClaim("project-a", a.claimId(), T0);
    CreatedClaim b = claim("project-b", "k");

    JsonNode contextB = context(db, "project-b", 20);
    assertThat(ids(contextB, "claims", "claim_id")).containsExactly(b.claimId());
    for (String collection : List.of("evidence", "assumptions", "assumption_events", "reviews")) {
      assertThat(contextB.path(collection).isEmpty()).as(collection).isTrue();
    }
    JsonNode contextA = context(db, "project-a", 20);
    assertThat(ids(contextA, "claims", "claim_id")).containsExactly(a.claimId());
    assertThat(contextA.path("evidence").size()).isEqualTo(1);
    assertThat(contextA.path("assumption_events").size()).isEqualTo(1);
    assertThat(contextA.path("reviews").size()).isEqualTo(1);
  }

  @Test
  void references_acrossProjects_failLikeMissingOnesAndWriteNothing() {
    CreatedClaim a = claim("project-a", "k");
    String assumption =
        ledger.trackAssumption("project-a", "assumed", null, null, T0).assumptionId();
    claim("project-b", "k");
    Map<String, Long> before = rowCounts(db);

    assertReference(
        () ->
            ledger.addEvidence(
                evidence(
                    "project-b", a.claimId(), null, Relation.SUPPORTS, Origin.USER_ATTESTED, T0)),
        "No claim '" + a.claimId() + "' in project 'project-b'.");
    assertReference(
        () ->
            ledger.addEvidence(
                evidence(
                    "project-b", "no-such", null, Relation.SUPPORTS, Origin.USER_ATTESTED, T0)),
        "No claim 'no-such' in project 'project-b'.");
    assertReference(
        () -> ledger.reviewClaim("project-b", a.claimId(), T0),
        "No claim '" + a.claimId() + "' in project 'project-b'.");
    assertReference(
        () -> ledger.reviewDecision("project-b", "ship", List.of(), List.of(assumption), T0),
        "No assumption '" + assumption + "' in project 'project-b'.");
    assertReference(
        () ->
            ledger.updateAssumption(
                "project-b", assumption, AssumptionStatus.REFUTED, "elsewhere", T0),
        "No assumption '" + assumption + "' in project 'project-b'.");

    assertThat(rowCounts(db)).isEqualTo(before);
  }

  private static void assertReference(ThrowingCallable call, String message) {
    assertThatThrownBy(call)
        .isInstanceOfSatisfying(
            ToolException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_REFERENCE))
        .hasMessage(message);
  }

  // ---- atomic writes

  @Test
  void addEvidence_criterionOfAnotherClaim_isInvalidReferenceAndWritesNothing() {
    CreatedClaim first = claim("p", "k");
    CreatedClaim second = claim("p", "k");
    Map<String, Long> before = rowCounts(db);

    assertReference(
        () ->
            ledger.addEvidence(
                evidence(
                    "p",
                    first.claimId(),
                    criterion(second, 0),
                    Relation.SUPPORTS,
                    Origin.USER_ATTESTED,
                    T0)),
        "No criterion '"
            + criterion(second, 0)
            + "' on claim '"
            + first.claimId()
            + "' in project 'p'.");
    assertReference(
        () ->
            ledger.addEvidence(
                evidence(
                    "p", first.claimId(), "missing", Relation.SUPPORTS, Origin.USER_ATTESTED, T0)),
        "No criterion 'missing' on claim '" + first.claimId() + "' in project 'p'.");

    assertThat(rowCounts(db)).isEqualTo(before);
  }

  @Test
  void createClaim_secondCriterionInsertFails_writesNothingNotEvenTheProject() {
    List<Inputs.CriterionInput> clash = List.of(required("same"), optional("same"));

    assertThatThrownBy(() -> ledger.createClaim("fresh", "s", clash, T0))
        .isInstanceOf(StorageException.class);

    assertThat(rowCounts(db)).allSatisfy((t, n) -> assertThat(n).as(t).isZero());
    assertThatThrownBy(() -> ledger.reviewDecision("fresh", "d", List.of(), List.of("a"), T0))
        .hasMessageContaining("No project 'fresh' exists yet");
  }

  @Test
  void createClaim_idSupplierFailsMidway_rethrowsAndWritesNothing() {
    Ledger failing =
        new Ledger(
            () -> db,
            new java.util.function.Supplier<>() {
              int calls;

              @Override
              public String get() {
                if (++calls == 3) {
                  throw new IllegalStateException("no more IDs");
                }
                return "id-" + calls;
              }
            });

    assertThatThrownBy(
            () -> failing.createClaim("fresh", "s", List.of(required("a"), required("b")), T0))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("no more IDs");

    assertThat(rowCounts(db)).allSatisfy((t, n) -> assertThat(n).as(t).isZero());
  }

  @Test
  void reviewClaim_unknownProject_isInvalidReferenceAndSavesNothing() {
    assertThatThrownBy(() -> ledger.reviewClaim("ghost", "c", T0))
        .isInstanceOfSatisfying(
            ToolException.class, e -> assertThat(e.code()).isEqualTo(ErrorCodes.INVALID_REFERENCE))
        .hasMessageContaining("'ghost'");

    assertThat(rowCounts(db)).allSatisfy((t, n) -> assertThat(n).as(t).isZero());
  }

  /**
   * Regression: timestamps were written with the year-of-era pattern {@code yyyy}, so an
   * observed_at in year 0 or before came back a year or more off (-0001 as 0002, 0000 as 0001).
   */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-11-05T00:00:00.123Z",
        "0000-06-01T00:00:00Z",
        "-0001-06-01T00:00:00Z",
        "+10000-01-01T00:00:00Z"
      })
  void addEvidence_observedAtAnyYear_isStoredAndEchoedUnchanged(String observedAt) {
    CreatedClaim claim = claim("p", "k");
    Instant observed = Instant.parse(observedAt);
    Records.Evidence e =
        evidence("p", claim.claimId(), null, Relation.NEUTRAL, Origin.AGENT_REPORTED, T0);

    Results.AddedEvidence added =
        ledger.addEvidence(
            new Records.Evidence(
                null,
                e.projectId(),
                e.claimId(),
                null,
                e.contentSummary(),
                e.relation(),
                e.origin(),
                e.sourceType(),
                e.sourceRef(),
                e.collector(),
                null,
                observed,
                T0));

    assertThat(Instant.parse(added.provenance().observedAt())).isEqualTo(observed);
    JsonNode stored = context(db, "p", 20).path("evidence").get(0).path("provenance");
    assertThat(Instant.parse(stored.path("observed_at").asString())).isEqualTo(observed);
  }

  // ---- snapshots and assumption history

  @Test
  void reviewClaim_laterEvidence_leavesSavedSnapshotIntact() {
    ledger.provision("p", Policy.PROVISIONAL_1, T0);
    CreatedClaim claim = claim("p", "k");
    SavedReview first = ledger.reviewClaim("p", claim.claimId(), T0);
    Instant later = clock.advance(SECOND);
    ledger.addEvidence(
        evidence(
            "p",
            claim.claimId(),
            criterion(claim, 0),
            Relation.SUPPORTS,
            Origin.USER_ATTESTED,
            later));

    SavedReview second = ledger.reviewClaim("p", claim.claimId(), later);

    assertThat(first.status()).isEqualTo("unverified");
    assertThat(second.status()).isEqualTo("verified");
    assertThat(
            strings(
                db,
                "SELECT status || ' ' || snapshot FROM evidence_reviews WHERE review_id = '"
                    + first.reviewId()
                    + "'"))
        .containsExactly("unverified " + Json.write(first));
    assertThat(ids(context(db, "p", 20), "reviews", "status"))
        .containsExactly("verified", "unverified");
  }

  @Test
  void reviewDecision_laterAssumptionUpdate_leavesSavedSnapshotIntact() {
    String assumption = ledger.trackAssumption("p", "assumed", null, null, T0).assumptionId();
    SavedReview before = ledger.reviewDecision("p", "ship", List.of(), List.of(assumption), T0);
    ledger.updateAssumption("p", assumption, AssumptionStatus.REFUTED, "broke", T0);

    SavedReview after = ledger.reviewDecision("p", "ship", List.of(), List.of(assumption), T0);

    assertThat(before.status()).isEqualTo("warning");
    assertThat(after.status()).isEqualTo("blocked_recommendation");
    assertThat(
            strings(
                db,
                "SELECT snapshot FROM evidence_reviews WHERE review_id = '"
                    + before.reviewId()
                    + "'"))
        .containsExactly(Json.write(before));
  }

  @Test
  void updateAssumption_twice_recordsPositionsAndStatusChanges() {
    String id = ledger.trackAssumption("p", "assumed", "ctx", 0.25, T0).assumptionId();

    Results.UpdatedAssumption one =
        ledger.updateAssumption("p", id, AssumptionStatus.SUPPORTED, "first", T0);
    Results.UpdatedAssumption two =
        ledger.updateAssumption("p", id, AssumptionStatus.INCONCLUSIVE, "second", T0);

    assertThat(List.of(one.position(), two.position())).containsExactly(1, 2);
    assertThat(one.previousStatus()).isEqualTo("unverified");
    assertThat(two.previousStatus()).isEqualTo("supported");
    assertThat(two.status()).isEqualTo("inconclusive");
    assertThat(
            strings(
                db,
                "SELECT position || ':' || previous_status || '>' || new_status || ':' || reason"
                    + " FROM evidence_assumption_events ORDER BY position"))
        .containsExactly("1:unverified>supported:first", "2:supported>inconclusive:second");
    JsonNode assumption = context(db, "p", 20).path("assumptions").get(0);
    assertThat(assumption.path("status").asString()).isEqualTo("inconclusive");
    assertThat(assumption.path("confidence").asDouble()).isEqualTo(0.25);
  }

  @Test
  void open_databaseAtVersion2_replacesTheTallyIndexByTalliesAndReviewsStillWork() {
    Path oldDir = dir.resolve("v2");
    CreatedClaim claim;
    try (Database v2 =
        new Database(
            oldDir, List.of(Area.of("evidence", EvidenceSchema.V1, EvidenceSchema.V2)), clock)) {
      claim =
          new Ledger(() -> v2, ids)
              .createClaim("p", "kept", List.of(required("k")), clock.instant());
      assertThat(hasIndex(v2, "evidence_records_claim")).isTrue();
    }

    try (Database v3 = new Database(oldDir, List.of(EvidenceSchema.area()), clock)) {
      assertThat(hasIndex(v3, "evidence_records_tally")).isFalse();
      assertThat(hasTable(v3, "evidence_tallies")).isTrue();
      assertThat(hasIndex(v3, "evidence_records_claim")).isFalse();
      assertThat(
              new Ledger(() -> v3, ids).reviewClaim("p", claim.claimId(), clock.instant()).status())
          .isEqualTo("unverified");
    }
  }

  private static boolean hasIndex(Database db, String name) {
    return db.read(
        c ->
            Sql.one(
                    c,
                    "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = ?",
                    rs -> rs.getInt(1),
                    name)
                == 1);
  }
}
