package dev.cortex.workflows.consent;

import java.util.Objects;

/**
 * A question for the human: may this happen? {@code message} is plain text, several lines, the same
 * on every channel; {@code action} is the verb of the approving button (Run, Trust).
 */
public record Confirmation(Kind kind, String title, String message, String action) {
  /** What is being confirmed. */
  public enum Kind {
    /** One run of a workflow, with its parameters. */
    RUN,
    /** Trust in a remote workflow at one commit, with the capabilities it declares. */
    TRUST
  }

  public Confirmation {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(title, "title");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(action, "action");
  }
}
