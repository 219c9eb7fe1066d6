package dev.cortex.server.waitpoints;

import static dev.cortex.server.waitpoints.WaitFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.protocol.webhook.Signals;
import dev.cortex.storage.Sql;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What time does, as the housekeeping tick sees it: coalescing windows, expiries, the hourly cap,
 * removal of old waitpoints; and the delivery of wakes, once, across failures and restarts.
 */
class WaitpointsSweepTest {
  @TempDir Path dir;
  WaitFixture fixture;

  @BeforeEach
  void open() {
    fixture = new WaitFixture(dir);
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void signal_quorumOfSeveral_waitsTheCoalescingWindow_andLateReportsJoinTheWake() {
    Waitpoints.Created created = fixture.create(request().members("a", "b", "c").quorum(2));
    fixture.signal(created, "ok", "a");

    Signals.Outcome quorum = fixture.signal(created, "ok", "b");
    fixture.tick(Duration.ofSeconds(2));
    Signals.Outcome late = fixture.signal(created, "ok", "c", "late but in time", null);

    assertThat(quorum.fired()).isTrue();
    assertThat(quorum.state()).isEqualTo("closing");
    assertThat(quorum.message()).contains("wakes in 3 s");
    assertThat(late.fired()).isFalse();
    assertThat(late.message()).contains("joins the wake due at");
    assertThat(fixture.wakes()).isEmpty();
    fixture.tick(Duration.ofSeconds(1));
    assertThat(fixture.wakes()).hasSize(1);
    assertThat(fixture.wakes().get(0))
        .contains("3 of 3 members reported (quorum 2)")
        .contains("late but in time");
    assertThat(fixture.view(created).state()).isEqualTo("resolved");
    fixture.tick(Duration.ofMinutes(1));
    assertThat(fixture.wakes()).hasSize(1);
  }

  @Test
  void signal_coalesceZero_firesAtTheQuorum() {
    fixture.settings(Duration.ZERO, 20, Duration.ofDays(30));
    Waitpoints.Created created = fixture.create(request().members("a", "b"));
    fixture.signal(created, "ok", "a");

    Signals.Outcome quorum = fixture.signal(created, "ok", "b");

    assertThat(quorum.state()).isEqualTo("resolved");
    assertThat(fixture.wakes()).hasSize(1);
  }

  @Test
  void sweep_pastTheExpiry_endsTheWaitpointWithANoticeOnce() {
    Waitpoints.Created created = fixture.create(request().members("a", "b").expiresInHours(1));
    fixture.signal(created, "ok", "a", "half done", null);

    fixture.tick(Duration.ofMinutes(59));
    assertThat(fixture.view(created).state()).isEqualTo("open");
    fixture.tick(Duration.ofMinutes(1));

    assertThat(fixture.view(created).state()).isEqualTo("expired");
    assertThat(fixture.wakes()).hasSize(1);
    assertThat(fixture.wakes().get(0))
        .contains("\"train resnet\" expired after 1 h 0 min without firing")
        .contains("check directly")
        .contains("read the metrics")
        .contains("half done");
    fixture.tick(Duration.ofMinutes(1));
    assertThat(fixture.wakes()).hasSize(1);
    Signals.Outcome late = fixture.signal(created, "ok", "b");
    assertThat(late.outcome()).isEqualTo(Signals.Outcome.RESOLVED);
    assertThat(late.message()).contains("had already expired at");
  }

  @Test
  void signal_aboveTheHourlyCap_warnsOnce_thenHoldsWakesUntilTheHourAllowsAndBringsThemTogether() {
    fixture.settings(Duration.ofSeconds(3), 2, Duration.ofDays(30));
    Waitpoints.Created created = fixture.create(request().maxSignals(10));

    for (int i = 1; i <= 5; i++) {
      fixture.signal(created, "ok", null, "ping " + i, null);
      fixture.tick(Duration.ofMinutes(1));
    }

    assertThat(fixture.wakes()).hasSize(3);
    assertThat(fixture.wakes().get(1)).doesNotContain("Warning");
    assertThat(fixture.wakes().get(2))
        .contains("Warning: this waitpoint has now woken you 3 times within an hour")
        .contains("max_wakes_per_hour");
    assertThat(fixture.view(created).fires()).isEqualTo(5);
    // The fourth was due an hour after the first; the fifth joined it.
    fixture.tick(Duration.ofMinutes(54));
    assertThat(fixture.wakes()).hasSize(3);
    fixture.tick(Duration.ofMinutes(1));
    assertThat(fixture.wakes()).hasSize(4);
    assertThat(fixture.wakes().get(3))
        .contains("It fired 2 times (rounds 4 to 5)")
        .contains("ping 4")
        .contains("ping 5")
        .doesNotContain("ping 3");
  }

  @Test
  void sweep_endedLongerAgoThanKeepResolved_removesIt_andLateSignalsAreUnknown() {
    Waitpoints.Created created = fixture.create();
    fixture.signal(created, "ok", null);

    fixture.tick(WaitSettings.DEFAULTS.keepResolved());
    assertThat(fixture.signal(created, "ok", null).outcome()).isEqualTo(Signals.Outcome.RESOLVED);
    fixture.tick(Duration.ofSeconds(1));

    assertThat(WaitpointsSignalTest.code(() -> fixture.signal(created, "ok", null)))
        .isEqualTo(Signals.Codes.UNKNOWN_WAITPOINT);
  }

  @Test
  void deliver_aSessionThatIsGone_marksTheWakeWithTheReason_andNeverTriesAgain() {
    Waitpoints.Created created = fixture.create();
    fixture.inbox.gone(WaitFixture.SESSION);

    Signals.Outcome outcome = fixture.signal(created, "ok", null);
    fixture.tick(Duration.ofMinutes(1));

    assertThat(outcome.fired()).isTrue();
    assertThat(outcome.message()).doesNotContain("The session:");
    String error =
        fixture.database.read(
            c -> Sql.one(c, "SELECT error FROM wait_wakes", rs -> rs.getString(1)));
    assertThat(error).contains("is gone");
    assertThat(undelivered()).isZero();
  }

  @Test
  void deliver_aPassingFailure_isTriedAgainAtTheNextTick() {
    Waitpoints.Created created = fixture.create();
    fixture.inbox.failNext(1);

    fixture.signal(created, "ok", null);
    assertThat(fixture.wakes()).isEmpty();
    assertThat(undelivered()).isEqualTo(1);
    fixture.tick(Duration.ofSeconds(1));

    assertThat(fixture.wakes()).hasSize(1);
    assertThat(undelivered()).isZero();
  }

  @Test
  void recover_aWakeClaimedBeforeACrash_isDeliveredOnceAfterTheRestart() {
    Waitpoints.Created created = fixture.create();
    fixture.inbox.failNext(1);
    fixture.signal(created, "ok", null);
    // The server took the wake for delivery and died.
    fixture.database.write(c -> WakeStore.claim(c, 1, fixture.clock.instant()));
    fixture.tick(Duration.ofSeconds(1));
    assertThat(fixture.wakes()).isEmpty();

    restarted().recover();

    assertThat(fixture.wakes()).hasSize(1);
    restarted().recover();
    assertThat(fixture.wakes()).hasSize(1);
  }

  @Test
  void recover_aWakeTheInboxTookBeforeACrash_isNotDeliveredTwice() {
    Waitpoints.Created created = fixture.create();
    fixture.signal(created, "ok", null);
    // The inbox took it, and the server died before marking it delivered.
    fixture.database.write(
        c -> Sql.update(c, "UPDATE wait_wakes SET delivered_at = NULL, claimed_at = claimed_at"));

    restarted().recover();

    assertThat(fixture.wakes()).hasSize(1);
    assertThat(undelivered()).isZero();
  }

  /** The waitpoints of a server started again on the same database. */
  Waitpoints restarted() {
    return new Waitpoints(
        () -> fixture.database, fixture.inbox, fixture.settings::get, fixture.clock);
  }

  int undelivered() {
    return fixture.database.read(
        c ->
            Sql.one(
                c,
                "SELECT COUNT(*) FROM wait_wakes WHERE delivered_at IS NULL",
                rs -> rs.getInt(1)));
  }
}
