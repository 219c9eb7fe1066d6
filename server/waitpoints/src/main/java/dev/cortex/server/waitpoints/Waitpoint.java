package dev.cortex.server.waitpoints;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * A waitpoint as stored.
 *
 * @param members the members it waits for, or null when anyone may signal (each anonymous signal
 *     counting as a member of its own)
 * @param quorum how many distinct members must report for a round to fire
 * @param round the round now collecting reports; a mailbox ({@code maxSignals > 1}) starts a new
 *     one after each fire
 * @param closingUntil the end of the coalescing window, while {@link State#CLOSING}
 * @param lastFireAt when it last fired (a later round waits from then)
 */
public record Waitpoint(
    String id,
    String sessionId,
    String label,
    String intent,
    List<String> members,
    int quorum,
    boolean failFast,
    int maxSignals,
    String device,
    String secretSha256,
    State state,
    int round,
    int fires,
    Instant closingUntil,
    Instant lastFireAt,
    Instant createdAt,
    Instant expiresAt,
    Instant endedAt) {

  public enum State {
    OPEN,
    CLOSING,
    RESOLVED,
    EXPIRED,
    CANCELLED;

    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }

    static State of(String wire) {
      return valueOf(wire.toUpperCase(Locale.ROOT));
    }

    /** Whether it can still fire. */
    public boolean waiting() {
      return this == OPEN || this == CLOSING;
    }
  }
}
