package dev.cortex.server.waitpoints;

import java.time.Instant;

/**
 * A wake owed to a session, as stored: a fire (of rounds {@code firstRound} to {@code lastRound},
 * more than one when the hourly cap held it back) or an expiry notice.
 *
 * @param status {@code ok} or {@code fail} for a fire (fail when any of its rounds failed), null
 *     for an expiry
 * @param warning the hourly cap's warning, for the first wake above it
 * @param waitedFrom when the wait began: the creation, or the previous fire
 * @param dueAt when it may be delivered (later than {@code createdAt} when the cap holds it)
 */
record Wake(
    long id,
    String waitpointId,
    String sessionId,
    String kind,
    Integer firstRound,
    Integer lastRound,
    String status,
    String warning,
    Instant waitedFrom,
    Instant createdAt,
    Instant dueAt) {}
