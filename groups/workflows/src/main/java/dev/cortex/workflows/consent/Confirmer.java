package dev.cortex.workflows.consent;

/** Puts a confirmation to a human and waits for the decision. */
@FunctionalInterface
public interface Confirmer {
  Decision confirm(Confirmation confirmation);
}
