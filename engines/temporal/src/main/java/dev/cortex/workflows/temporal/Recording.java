package dev.cortex.workflows.temporal;

import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.RunStore;
import dev.cortex.workflows.run.TraceFiles;

/**
 * The worker's side of {@link RunRecorder}: the run index and trace files of the worker's {@code
 * CORTEX_HOME}. Every call can be repeated (Temporal retries a local activity whose worker died
 * before the workflow task completed) and leaves the same state.
 */
final class Recording implements RunRecorder {
  private final RunStore store;
  private final TraceFiles traces;
  private final WorkerScopes scopes;

  Recording(RunStore store, TraceFiles traces, WorkerScopes scopes) {
    this.store = store;
    this.traces = traces;
    this.scopes = scopes;
  }

  @Override
  public void begin(String run, String manifest) {
    RunRecord record = Payloads.read(run, RunRecord.class);
    if (store.create(record, manifest, RunStore.Owner.current())) {
      traces.write(record);
    }
  }

  @Override
  public void step(String run, int position) {
    RunRecord record = Payloads.read(run, RunRecord.class);
    store.saveStep(record, position);
    traces.write(record);
  }

  @Override
  public void finish(String run) {
    RunRecord record = Payloads.read(run, RunRecord.class);
    store.finish(record);
    traces.write(record);
    scopes.close(record.runId());
  }
}
