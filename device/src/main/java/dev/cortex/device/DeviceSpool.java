package dev.cortex.device;

import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.webhook.ErrorBody;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Spool;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The device's spool of signals ({@code $CORTEX_HOME/spool/}): files dropped there, by {@code
 * cortex signal} on this device or by any program, travel to the server over the hub connection
 * (when it is welcomed, and every second after), and go once the server has answered: deleted when
 * it took the signal, moved aside with the reason when it refused it, kept when it could not take
 * it now. A file that cannot be read is moved aside here.
 */
final class DeviceSpool {
  private static final Logger log = LoggerFactory.getLogger(DeviceSpool.class);

  /** Files sent per flush at most. */
  static final int BATCH = 50;

  /** A file sent without an answer is sent again after this. */
  static final Duration RESEND_AFTER = Duration.ofSeconds(30);

  /** Refusals that no later try would change: the file is moved aside. */
  private static final Set<String> FINAL =
      Set.of(
          Signals.Codes.UNKNOWN_WAITPOINT,
          Signals.Codes.BAD_SECRET,
          ErrorBody.Codes.INVALID_ARGUMENT);

  private final Spool spool;
  private final Clock clock;
  private final Map<String, Instant> sent = new ConcurrentHashMap<>();

  DeviceSpool(Path dir, Clock clock) {
    this.spool = new Spool(dir);
    this.clock = clock;
  }

  Spool spool() {
    return spool;
  }

  /** A new connection was welcomed: everything waiting is sent again. */
  void welcomed(Consumer<HubMessage> send) {
    sent.clear();
    flush(send);
  }

  /** Sends the files waiting that are not on their way already. */
  synchronized void flush(Consumer<HubMessage> send) {
    Instant now = clock.instant();
    for (Spool.Entry entry : spool.take(BATCH, now)) {
      if (entry.problem() != null) {
        log.warn("spool file {} moved aside: {}", entry.name(), entry.problem());
        spool.reject(entry.file(), entry.problem());
        continue;
      }
      Instant before = sent.get(entry.name());
      if (before != null && before.plus(RESEND_AFTER).isAfter(now)) {
        continue;
      }
      sent.put(entry.name(), now);
      send.accept(new HubMessage.SignalFile(entry.name(), entry.signal()));
    }
  }

  /** The server's answer about one file. */
  synchronized void answered(HubMessage.SignalAck ack) {
    String name = ack.file();
    if (name == null || sent.remove(name) == null) {
      return;
    }
    Path file = spool.dir().resolve(name);
    if (ack.error() == null) {
      spool.done(file);
      log.info(
          "signal {} delivered: {}",
          name,
          ack.outcome() == null ? "taken" : ack.outcome().outcome());
    } else if (FINAL.contains(ack.error().code())) {
      log.warn("signal {} refused ({}): {}", name, ack.error().code(), ack.error().message());
      spool.reject(file, ack.error().code() + ": " + ack.error().message());
    } else {
      // Not taken for now (the server could not take it): sent again after the resend delay.
      sent.put(name, clock.instant());
      log.info(
          "signal {} not taken now ({}); it is sent again in {} s",
          name,
          ack.error().message(),
          RESEND_AFTER.toSeconds());
    }
  }
}
