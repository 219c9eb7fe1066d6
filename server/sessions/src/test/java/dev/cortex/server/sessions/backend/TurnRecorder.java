package dev.cortex.server.sessions.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * Records a turn's events, those of the conversation apart from how the backend takes messages
 * ({@link BackendEvent.Handshake}, {@link BackendEvent.Acked}); tests wait on it for an event (with
 * a deadline, never a sleep).
 */
final class TurnRecorder implements Backend.TurnEvents {
  static final Duration DEADLINE = Duration.ofSeconds(60);

  private final List<BackendEvent> events = new ArrayList<>();
  private final List<BackendEvent> acks = new ArrayList<>();

  @Override
  public synchronized void event(BackendEvent event) {
    if (event instanceof BackendEvent.Handshake || event instanceof BackendEvent.Acked) {
      acks.add(event);
    } else {
      events.add(event);
    }
    notifyAll();
  }

  /** The conversation's events, in order. */
  synchronized List<BackendEvent> events() {
    return List.copyOf(events);
  }

  /** The handshake and the acknowledgements, in order. */
  synchronized List<BackendEvent> acks() {
    return List.copyOf(acks);
  }

  /** Waits until the backend acknowledged the message {@code id}. */
  synchronized void awaitAck(String id) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!acks.contains(new BackendEvent.Acked(id))) {
      long left = deadline - System.nanoTime();
      assertThat(left).as("an ack of %s within %s; got %s", id, DEADLINE, acks).isPositive();
      wait(Math.max(1, left / 1_000_000));
    }
  }

  /** Waits until an event matches {@code condition}; fails after {@link #DEADLINE}. */
  synchronized BackendEvent await(Predicate<BackendEvent> condition) throws InterruptedException {
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (true) {
      for (BackendEvent event : events) {
        if (condition.test(event)) {
          return event;
        }
      }
      long left = deadline - System.nanoTime();
      assertThat(left).as("an awaited event within %s; got %s", DEADLINE, events).isPositive();
      wait(Math.max(1, left / 1_000_000));
    }
  }

  /** Waits until the turn's text includes {@code text}. */
  BackendEvent awaitText(String text) throws InterruptedException {
    return await(e -> e instanceof BackendEvent.Text t && t.text().equals(text));
  }

  /**
   * Waits for the end of {@code turn} and returns it, once the turn's process has exited too (its
   * input is closed at the end, so it must).
   */
  static BackendEvent.End end(RunningTurn turn) throws InterruptedException {
    BackendEvent.End end =
        turn.await(DEADLINE)
            .orElseThrow(() -> new AssertionError("the turn did not end within " + DEADLINE));
    if (turn instanceof ProcessTurn process) {
      assertThat(process.process().await(DEADLINE))
          .as("the turn's process exits after its end")
          .isPresent();
    }
    return end;
  }
}
