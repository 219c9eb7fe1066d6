package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.protocol.hub.Hub;
import dev.cortex.testing.MovableClock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** How many refusals the hub warns of: once per code and peer, whatever names the peer picks. */
class RefusalLogTest {
  final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
  final RefusalLog refusals = new RefusalLog(clock);

  int warned(int times, String peer, String code, boolean newDevice, boolean newReason) {
    int warned = 0;
    for (int i = 0; i < times; i++) {
      String device = newDevice ? "box-" + i : "box";
      String reason = newReason ? "The hub does not answer to host-" + i + "." : "Refused.";
      if (refusals.refused("the connection", peer, device, code, reason)) {
        warned++;
      }
    }
    return warned;
  }

  /** Regression: each new device name or Host a peer picked was warned of, without end. */
  @Test
  void refused_aFloodOfNewNamesFromOnePeer_warnsABoundedNumberOfTimes() {
    assertThat(warned(20_000, "10.0.0.9", Hub.Refusals.NOT_REGISTERED, true, true))
        .isEqualTo(RefusalLog.DEVICES_PER_CAUSE);
    assertThat(warned(20_000, "10.0.0.9", Hub.Refusals.HOST_NOT_ALLOWED, false, true)).isOne();
  }

  @Test
  void refused_anotherCodeOrPeer_isWarnedOfOnce() {
    assertThat(warned(5, "10.0.0.9", Hub.Refusals.UNAUTHORIZED, false, false)).isOne();
    assertThat(warned(5, "10.0.0.7", Hub.Refusals.UNAUTHORIZED, false, false)).isOne();
    assertThat(warned(5, "10.0.0.7", Hub.Refusals.ORIGIN_NOT_ALLOWED, false, false)).isOne();
  }

  @Test
  void refused_floodFromManyPeers_warnsAtMostTheCapWithinTheHour_thenStartsAgain() {
    int warned = 0;
    for (int i = 0; i < 3 * RefusalLog.MAX_CAUSES; i++) {
      if (refusals.refused("the connection", "10.1." + i, null, "UNAUTHORIZED", "Refused.")) {
        warned++;
      }
    }
    assertThat(warned).isEqualTo(RefusalLog.MAX_CAUSES);

    clock.advance(RefusalLog.WINDOW.plus(Duration.ofSeconds(1)));

    assertThat(refusals.refused("the connection", "10.1.0", null, "UNAUTHORIZED", "Refused."))
        .isTrue();
  }
}
