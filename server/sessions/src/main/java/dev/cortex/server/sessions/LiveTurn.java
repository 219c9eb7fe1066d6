package dev.cortex.server.sessions;

import dev.cortex.server.sessions.backend.RunningTurn;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A turn that is running: its execution, its backend's turn, the messages it started with, whether
 * its backend acknowledges messages, and what it has cost so far.
 */
final class LiveTurn {
  /** Whether the backend acknowledges the messages it takes: unknown until it says. */
  enum Acks {
    UNKNOWN,
    YES,
    NO
  }

  final String executionId;

  /** When the turn has run for max_turn, by the server's clock. */
  final Instant deadline;

  /** The inbox numbers of the messages the turn started with, in order. */
  final List<Long> prompt;

  volatile RunningTurn turn;
  volatile double usd;
  volatile String stopReason;
  volatile boolean timedOut;

  /** Guarded by the session's lock, as is {@link #tookAny}. */
  Acks acks = Acks.UNKNOWN;

  /** Whether the backend acknowledged any message offered to the turn. */
  boolean tookAny;

  /**
   * The messages offered to the turn and neither taken nor back in the queue yet, guarded by the
   * session's lock.
   */
  final Set<Long> unacknowledged = new HashSet<>();

  /** What became of each message offered to the turn: taken (true), or back in the queue. */
  private final Map<Long, CompletableFuture<Boolean>> offers = new ConcurrentHashMap<>();

  LiveTurn(String executionId, Instant deadline, List<Long> prompt) {
    this.executionId = executionId;
    this.deadline = deadline;
    this.prompt = List.copyOf(prompt);
    this.unacknowledged.addAll(prompt);
  }

  /** Completes, true once the turn took the message {@code seq}, false once it went back. */
  CompletableFuture<Boolean> outcome(long seq) {
    return offers.computeIfAbsent(seq, k -> new CompletableFuture<>());
  }

  /** The message {@code seq} was offered to the turn. */
  void offered(long seq) {
    unacknowledged.add(seq);
    outcome(seq);
  }

  void taken(long seq) {
    tookAny = true;
    unacknowledged.remove(seq);
    outcome(seq).complete(true);
  }

  void returned(Collection<Long> seqs) {
    unacknowledged.removeAll(seqs);
    seqs.forEach(seq -> outcome(seq).complete(false));
  }

  /** Stops the backend's turn, saying why; false when it has not started yet. */
  boolean stop(String reason) {
    RunningTurn running = turn;
    if (running == null) {
      return false;
    }
    stopReason = reason;
    running.stop();
    return true;
  }

  /**
   * Stops the turn, once, when it has run past its deadline at {@code now}: nobody asked for it, so
   * the turn fails. The stop runs on a thread of its own, so that the caller (the housekeeping)
   * does not wait for the program to end.
   */
  void expireAt(Instant now, String reason) {
    synchronized (this) {
      if (timedOut || turn == null || now.isBefore(deadline)) {
        return;
      }
      timedOut = true;
    }
    Thread stopping = new Thread(() -> stop(reason), "cortex-turn-expiry");
    stopping.setDaemon(true);
    stopping.start();
  }
}
