package dev.cortex.workflows.run;

/** One element of a {@code for_each} step: its index, outcome, attempts and summary. */
public record ItemRecord(
    int index, StepStatus status, int attempts, long durationMs, String summary, StepError error) {}
