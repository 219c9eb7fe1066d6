package dev.cortex.workflows.activity;

import dev.cortex.process.RunningProcess;

/**
 * Hears of the processes an attempt starts and of their end, so that an engine can record their
 * process groups with the run (and end what is left of them before the run is resumed).
 */
public interface ProcessObserver {
  ProcessObserver NONE =
      new ProcessObserver() {
        @Override
        public void started(RunningProcess process) {}

        @Override
        public void ended(RunningProcess process) {}
      };

  /** {@code process} was started by the attempt; called before the attempt waits for it. */
  void started(RunningProcess process);

  /** {@code process} ended and its group with it. */
  void ended(RunningProcess process);

  /** Where the output of the processes the attempt starts goes as it comes; nowhere by default. */
  default dev.cortex.process.OutputListener output() {
    return dev.cortex.process.OutputListener.NONE;
  }
}
