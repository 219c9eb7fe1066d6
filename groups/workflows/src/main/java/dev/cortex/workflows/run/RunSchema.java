package dev.cortex.workflows.run;

import dev.cortex.storage.Area;
import dev.cortex.storage.Migration;

/** The workflows area's tables: the run index and each step's durable result. */
final class RunSchema {
  private RunSchema() {}

  static final String AREA = "workflows";

  static final Migration V1 =
      Migration.sql(
          1,
          """
          CREATE TABLE workflow_runs (
            run_id TEXT PRIMARY KEY,
            workflow TEXT NOT NULL,
            version TEXT NOT NULL,
            source_kind TEXT NOT NULL,
            source_ref TEXT NOT NULL,
            source_location TEXT NOT NULL,
            parameters TEXT NOT NULL,
            status TEXT NOT NULL,
            engine TEXT NOT NULL,
            owner_pid INTEGER,
            owner_started TEXT,
            started_at TEXT NOT NULL,
            ended_at TEXT,
            duration_ms INTEGER,
            steps_total INTEGER NOT NULL,
            steps_completed INTEGER NOT NULL DEFAULT 0,
            resumes INTEGER NOT NULL DEFAULT 0,
            cost_usd TEXT NOT NULL DEFAULT '0',
            input_tokens INTEGER NOT NULL DEFAULT 0,
            output_tokens INTEGER NOT NULL DEFAULT 0,
            unpriced INTEGER NOT NULL DEFAULT 0,
            error TEXT);
          CREATE INDEX workflow_runs_recent ON workflow_runs(started_at DESC, run_id DESC);
          CREATE INDEX workflow_runs_by_workflow ON workflow_runs(workflow, started_at DESC);
          CREATE INDEX workflow_runs_by_status ON workflow_runs(status, started_at DESC);
          CREATE TABLE workflow_run_manifests (
            run_id TEXT PRIMARY KEY REFERENCES workflow_runs(run_id),
            manifest TEXT NOT NULL);
          CREATE TABLE workflow_run_steps (
            run_id TEXT NOT NULL REFERENCES workflow_runs(run_id),
            position INTEGER NOT NULL,
            step_id TEXT NOT NULL,
            record TEXT NOT NULL,
            PRIMARY KEY (run_id, position));
          """);

  /**
   * Version 2: a run's cancellation (asked for by another process, and as it ended), and the
   * process groups its running attempts lead, so that nothing of an interrupted attempt is left
   * running when the run is resumed or cancelled.
   */
  static final Migration V2 =
      Migration.sql(
          2,
          """
          ALTER TABLE workflow_runs ADD COLUMN cancel_request TEXT;
          ALTER TABLE workflow_runs ADD COLUMN cancelled TEXT;
          CREATE TABLE workflow_run_groups (
            run_id TEXT NOT NULL REFERENCES workflow_runs(run_id),
            group_id INTEGER NOT NULL,
            position INTEGER NOT NULL,
            leader_started TEXT NOT NULL,
            PRIMARY KEY (run_id, group_id));
          """);

  static Area area() {
    return Area.of(AREA, V1, V2);
  }
}
