package dev.cortex.evidence;

import dev.cortex.storage.Area;
import dev.cortex.storage.Migration;

/** The evidence area's tables, as versioned migrations. Released migrations never change. */
final class EvidenceSchema {
  private EvidenceSchema() {}

  static final String AREA = "evidence";

  /** Version 1: projects, claims, criteria, evidence, assumptions and their events, reviews. */
  static final Migration V1 =
      Migration.sql(
          1,
          """
          CREATE TABLE evidence_projects (
            project_id TEXT PRIMARY KEY,
            policy TEXT NOT NULL,
            created_at TEXT NOT NULL);
          CREATE TABLE evidence_claims (
            claim_id TEXT PRIMARY KEY,
            project_id TEXT NOT NULL REFERENCES evidence_projects(project_id),
            statement TEXT NOT NULL,
            created_at TEXT NOT NULL);
          CREATE INDEX evidence_claims_recent ON evidence_claims(project_id, created_at DESC, claim_id DESC);
          CREATE TABLE evidence_criteria (
            criterion_id TEXT PRIMARY KEY,
            claim_id TEXT NOT NULL REFERENCES evidence_claims(claim_id),
            position INTEGER NOT NULL,
            key TEXT NOT NULL,
            description TEXT NOT NULL,
            required INTEGER NOT NULL,
            UNIQUE (claim_id, key));
          CREATE TABLE evidence_records (
            evidence_id TEXT PRIMARY KEY,
            project_id TEXT NOT NULL REFERENCES evidence_projects(project_id),
            claim_id TEXT NOT NULL REFERENCES evidence_claims(claim_id),
            criterion_id TEXT REFERENCES evidence_criteria(criterion_id),
            content_summary TEXT NOT NULL,
            relation TEXT NOT NULL,
            origin TEXT NOT NULL,
            source_type TEXT NOT NULL,
            source_ref TEXT,
            collector TEXT,
            artifact_digest TEXT,
            observed_at TEXT,
            created_at TEXT NOT NULL);
          CREATE INDEX evidence_records_claim ON evidence_records(claim_id);
          CREATE INDEX evidence_records_recent ON evidence_records(project_id, created_at DESC, evidence_id DESC);
          CREATE TABLE evidence_assumptions (
            assumption_id TEXT PRIMARY KEY,
            project_id TEXT NOT NULL REFERENCES evidence_projects(project_id),
            statement TEXT NOT NULL,
            context TEXT,
            confidence REAL,
            status TEXT NOT NULL,
            created_at TEXT NOT NULL,
            updated_at TEXT NOT NULL);
          CREATE INDEX evidence_assumptions_recent ON evidence_assumptions(project_id, created_at DESC, assumption_id DESC);
          CREATE TABLE evidence_assumption_events (
            event_id TEXT PRIMARY KEY,
            project_id TEXT NOT NULL REFERENCES evidence_projects(project_id),
            assumption_id TEXT NOT NULL REFERENCES evidence_assumptions(assumption_id),
            position INTEGER NOT NULL,
            previous_status TEXT NOT NULL,
            new_status TEXT NOT NULL,
            reason TEXT NOT NULL,
            created_at TEXT NOT NULL,
            UNIQUE (assumption_id, position));
          CREATE INDEX evidence_events_recent ON evidence_assumption_events(project_id, created_at DESC, event_id DESC);
          CREATE TABLE evidence_reviews (
            review_id TEXT PRIMARY KEY,
            project_id TEXT NOT NULL REFERENCES evidence_projects(project_id),
            target_type TEXT NOT NULL,
            target_id TEXT,
            decision TEXT,
            status TEXT NOT NULL,
            policy_version TEXT NOT NULL,
            snapshot TEXT NOT NULL,
            created_at TEXT NOT NULL);
          CREATE INDEX evidence_reviews_recent ON evidence_reviews(project_id, created_at DESC, review_id DESC);
          """);

  /** Version 2: receipts of local test runs recorded by {@code cortex collect-test}. */
  static final Migration V2 =
      Migration.sql(
          2,
          """
          CREATE TABLE evidence_test_runs (
            run_id TEXT PRIMARY KEY,
            project_id TEXT NOT NULL REFERENCES evidence_projects(project_id),
            claim_id TEXT NOT NULL REFERENCES evidence_claims(claim_id),
            criterion_id TEXT NOT NULL REFERENCES evidence_criteria(criterion_id),
            git_revision TEXT NOT NULL,
            runner TEXT NOT NULL,
            runner_version TEXT,
            files TEXT NOT NULL,
            exit_code INTEGER NOT NULL,
            started_at TEXT NOT NULL,
            finished_at TEXT NOT NULL,
            created_at TEXT NOT NULL);
          CREATE INDEX evidence_test_runs_recent ON evidence_test_runs(project_id, created_at DESC, run_id DESC);
          """);

  /**
   * Version 3: one covering index answers a review's per-criterion counts and first IDs from the
   * index alone; it also serves lookups by claim, so the older index goes.
   */
  static final Migration V3 =
      Migration.sql(
          3,
          """
          CREATE INDEX evidence_records_tally
            ON evidence_records(claim_id, criterion_id, relation, origin, evidence_id);
          DROP INDEX evidence_records_claim;
          """);

  /**
   * Version 4: each claim's evidence counted per criterion ({@code ''} for the claim as a whole),
   * relation and origin, with the three smallest record IDs, kept up to date by every insert in its
   * own transaction; a review reads these few rows instead of aggregating the records. Filled from
   * the records already there; the aggregate's index goes.
   */
  static final Migration V4 =
      Migration.sql(
          4,
          """
          CREATE TABLE evidence_tallies (
            claim_id TEXT NOT NULL REFERENCES evidence_claims(claim_id),
            criterion_id TEXT NOT NULL,
            relation TEXT NOT NULL,
            origin TEXT NOT NULL,
            count INTEGER NOT NULL,
            first_id TEXT NOT NULL,
            second_id TEXT,
            third_id TEXT,
            PRIMARY KEY (claim_id, criterion_id, relation, origin)) WITHOUT ROWID;
          INSERT INTO evidence_tallies
            (claim_id, criterion_id, relation, origin, count, first_id, second_id, third_id)
          SELECT claim_id, COALESCE(criterion_id, ''), relation, origin, COUNT(*),
            MAX(CASE WHEN rank = 1 THEN evidence_id END),
            MAX(CASE WHEN rank = 2 THEN evidence_id END),
            MAX(CASE WHEN rank = 3 THEN evidence_id END)
          FROM (SELECT claim_id, criterion_id, relation, origin, evidence_id,
                  ROW_NUMBER() OVER (PARTITION BY claim_id, criterion_id, relation, origin
                                     ORDER BY evidence_id) AS rank
                FROM evidence_records)
          GROUP BY claim_id, criterion_id, relation, origin;
          DROP INDEX evidence_records_tally;
          """);

  static Area area() {
    return Area.of(AREA, V1, V2, V3, V4);
  }
}
