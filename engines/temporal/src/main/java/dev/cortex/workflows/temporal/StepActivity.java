package dev.cortex.workflows.temporal;

import io.temporal.activity.ActivityInterface;
import io.temporal.activity.ActivityMethod;

/** The activity that carries out one attempt of a step, of any kind, on a worker. */
@ActivityInterface
public interface StepActivity {
  /**
   * Runs {@link Payloads.Call} (JSON) once and returns {@link Payloads.Result} (JSON); a failed
   * attempt is an {@code ApplicationFailure} whose type is the failure's kind and whose detail is
   * {@link Payloads.Failed} (JSON), non-retryable when the failure is.
   */
  @ActivityMethod(name = "CortexAttempt")
  String attempt(String call);
}
