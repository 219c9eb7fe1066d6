package dev.cortex.workflows.consent;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks through channels in a configured order. The first channel that can ask here is offered at
 * once; the next is offered when the earlier ones fail, or, with a grace period, also when the
 * grace period passes without an answer. The first answer wins and every other question is
 * withdrawn. The timeout bounds the whole wait of one confirmer, every question it asks together
 * (trust, then the run): nobody answering within it is a refusal.
 */
final class ChannelConsent implements Confirmer {
  private static final Logger log = LoggerFactory.getLogger(ChannelConsent.class);

  private final List<Channel> order;
  private final Duration grace;
  private final Duration timeout;
  private final LongSupplier nanoTime;
  private long deadline;
  private boolean started;

  /**
   * @param grace how long a channel has alone before the next is offered too; null to offer the
   *     next only when the earlier ones fail or cannot ask
   */
  ChannelConsent(List<Channel> order, Duration grace, Duration timeout) {
    this(order, grace, timeout, System::nanoTime);
  }

  ChannelConsent(List<Channel> order, Duration grace, Duration timeout, LongSupplier nanoTime) {
    this.order = List.copyOf(order);
    this.grace = grace;
    this.timeout = timeout;
    this.nanoTime = nanoTime;
  }

  private record Event(Channel channel, Boolean approved, Throwable failure) {}

  @Override
  public Decision confirm(Confirmation confirmation) {
    List<Channel> usable = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    for (Channel channel : order) {
      channel.unavailable().ifPresentOrElse(reasons::add, () -> usable.add(channel));
    }
    if (usable.isEmpty()) {
      return Decision.noChannel(String.join("; ", reasons));
    }
    if (!started) {
      started = true;
      deadline = nanoTime.getAsLong() + timeout.toNanos();
    }
    return new Asking(confirmation, usable, reasons).await();
  }

  /** One confirmation in progress. */
  private final class Asking {
    final Confirmation confirmation;
    final List<Channel> usable;
    final List<String> reasons;
    final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    final List<CompletableFuture<Boolean>> offered = new ArrayList<>();
    int next;
    int live;
    long nextOfferAt;

    Asking(Confirmation confirmation, List<Channel> usable, List<String> reasons) {
      this.confirmation = confirmation;
      this.usable = usable;
      this.reasons = new ArrayList<>(reasons);
    }

    Decision await() {
      offerNext();
      try {
        while (true) {
          long now = nanoTime.getAsLong();
          if (now >= deadline) {
            return withdrawAll(Decision.timedOut(timeout));
          }
          boolean more = next < usable.size();
          long until = more ? Math.min(deadline, nextOfferAt) : deadline;
          Event event = events.poll(Math.max(0, until - now), TimeUnit.NANOSECONDS);
          if (event == null) {
            if (more && nanoTime.getAsLong() >= nextOfferAt) {
              offerNext();
            }
            continue;
          }
          if (event.failure() == null && event.approved() != null) {
            String name = event.channel().name();
            return withdrawAll(
                event.approved() ? Decision.approved(name) : Decision.declined(name));
          }
          live--;
          if (event.failure() != null && !(event.failure() instanceof CancellationException)) {
            log.warn(
                "confirmation channel {} failed: {}",
                event.channel().name(),
                event.failure().toString());
            reasons.add(event.channel().name() + " failed");
          }
          if (next < usable.size()) {
            offerNext();
          } else if (live == 0) {
            return event.failure() == null
                ? withdrawAll(Decision.timedOut(timeout))
                : withdrawAll(Decision.noChannel(String.join("; ", reasons)));
          }
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return withdrawAll(Decision.timedOut(timeout));
      }
    }

    void offerNext() {
      Channel channel = usable.get(next++);
      live++;
      long now = nanoTime.getAsLong();
      nextOfferAt = grace == null ? Long.MAX_VALUE : now + grace.toNanos();
      CompletableFuture<Boolean> answer;
      try {
        answer = channel.ask(confirmation, Duration.ofNanos(Math.max(0, deadline - now)));
      } catch (RuntimeException e) {
        answer = CompletableFuture.failedFuture(e);
      }
      offered.add(answer);
      answer.whenComplete((approved, failure) -> events.add(new Event(channel, approved, failure)));
      log.debug("confirmation offered through {}", channel.name());
    }

    Decision withdrawAll(Decision decision) {
      for (CompletableFuture<Boolean> answer : offered) {
        if (!answer.isDone()) {
          answer.cancel(true);
        }
      }
      return decision;
    }
  }
}
