package dev.cortex.server.daemon;

import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Spool;
import dev.cortex.server.waitpoints.WaitException;
import dev.cortex.server.waitpoints.Waitpoints;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the signals dropped in the server's own spool ({@code $CORTEX_HOME/spool/}), on every
 * sweep: a signal taken (or answered "resolved" or "duplicate") deletes its file; a file that
 * cannot be read, or whose signal is refused, is moved aside with the reason; a file the server
 * could not take for another reason stays for the next sweep.
 */
final class SpoolDrain {
  private static final Logger log = LoggerFactory.getLogger(SpoolDrain.class);

  /** Files taken per sweep at most. */
  static final int BATCH = 100;

  private final Spool spool;
  private final Waitpoints waitpoints;
  private final Clock files;

  /**
   * A drain of {@code spool} into {@code waitpoints}.
   *
   * @param files the clock the files' modification times are read against, to tell a file still
   *     being written: the file system's, i.e. the system's, even when the server's own clock runs
   *     ahead of it for a test
   */
  SpoolDrain(Spool spool, Waitpoints waitpoints, Clock files) {
    this.spool = spool;
    this.waitpoints = waitpoints;
    this.files = files;
  }

  /** How many files were taken or moved aside. */
  int drain() {
    int handled = 0;
    for (Spool.Entry entry : spool.take(BATCH, files.instant())) {
      if (entry.problem() != null) {
        log.warn("spool file {} moved aside: {}", entry.name(), entry.problem());
        spool.reject(entry.file(), entry.problem());
        handled++;
        continue;
      }
      try {
        Signals.Outcome outcome = waitpoints.signal(entry.signal(), "spool");
        log.debug("spool file {}: {}", entry.name(), outcome.outcome());
        spool.done(entry.file());
        handled++;
      } catch (WaitException e) {
        log.warn("spool file {} refused ({}): {}", entry.name(), e.code(), e.getMessage());
        spool.reject(entry.file(), e.code() + ": " + e.getMessage());
        handled++;
      } catch (RuntimeException e) {
        log.warn("spool file {} could not be taken now; it is tried again", entry.name(), e);
        break;
      }
    }
    return handled;
  }
}
