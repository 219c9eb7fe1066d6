package dev.cortex.server.waitpoints;

import static dev.cortex.server.waitpoints.WaitFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.storage.Sql;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Signals: the order of refusals, duplicates, members, quorum, fail_fast and mailboxes. */
class WaitpointsSignalTest {
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

  int signalsStored(Waitpoints.Created created) {
    return fixture.database.read(
        c ->
            Sql.one(
                c,
                "SELECT COUNT(*) FROM wait_signals WHERE waitpoint_id = ?",
                rs -> rs.getInt(1),
                created.waitpoint().id()));
  }

  static String code(Runnable call) {
    try {
      call.run();
    } catch (WaitException e) {
      return e.code();
    }
    throw new AssertionError("not refused");
  }

  @Test
  void signal_quorumOfOne_firesAtOnce_andWakesTheSessionOnce() {
    Waitpoints.Created created = fixture.create();

    Signals.Outcome outcome = fixture.signal(created, "ok", null, "top-1 81.2%", null);

    assertThat(outcome.outcome()).isEqualTo(Signals.Outcome.ACCEPTED);
    assertThat(outcome.fired()).isTrue();
    assertThat(outcome.state()).isEqualTo("resolved");
    assertThat(outcome.message()).contains("it fired").contains("The session: woke");
    assertThat(fixture.wakes()).hasSize(1);
    assertThat(fixture.wakes().get(0))
        .contains(created.waitpoint().id())
        .contains("\"train resnet\" fired: ok")
        .contains("read the metrics")
        .contains("top-1 81.2%")
        .contains("\"via\" : \"http\"")
        .contains("resolved");
    fixture.waitpoints.sweep();
    assertThat(fixture.wakes()).hasSize(1);
  }

  @Test
  void signal_sameSignalIdTwice_isADuplicateAndRecordedOnce() {
    Waitpoints.Created created = fixture.create(request().members("a", "b"));

    Signals.Outcome first = fixture.signal(created, "ok", "a", null, "run-17-a");
    Signals.Outcome again = fixture.signal(created, "ok", "a", null, "run-17-a");

    assertThat(first.outcome()).isEqualTo(Signals.Outcome.ACCEPTED);
    assertThat(again.outcome()).isEqualTo(Signals.Outcome.DUPLICATE);
    assertThat(again.message()).contains("run-17-a").contains("changes nothing");
    assertThat(signalsStored(created)).isEqualTo(1);
  }

  @Test
  void signal_aDuplicateOfAnEndedWaitpoint_isAnsweredResolved() {
    Waitpoints.Created created = fixture.create();
    fixture.signal(created, "ok", null, null, "once");

    Signals.Outcome again = fixture.signal(created, "ok", null, null, "once");

    assertThat(again.outcome()).isEqualTo(Signals.Outcome.RESOLVED);
    assertThat(again.message()).contains("had already resolved at");
  }

  @Test
  void signal_unknownIdOrWrongSecret_isRefusedAndRecordsNothing() {
    Waitpoints.Created created = fixture.create();
    String id = created.waitpoint().id();

    assertThat(
            code(
                () ->
                    fixture.waitpoints.signal(
                        new Signals.Signal(
                            "wp-000000000000", created.secret(), "ok", null, null, null, null),
                        "http")))
        .isEqualTo(Signals.Codes.UNKNOWN_WAITPOINT);
    assertThat(
            code(
                () ->
                    fixture.waitpoints.signal(
                        new Signals.Signal(id, "wps_wrong", "ok", null, null, null, null), "http")))
        .isEqualTo(Signals.Codes.BAD_SECRET);
    assertThat(signalsStored(created)).isZero();
    assertThat(fixture.view(created).state()).isEqualTo("open");
  }

  @Test
  void signal_fieldsOutOfBounds_isInvalidArgument() {
    Waitpoints.Created created = fixture.create();

    assertThat(code(() -> fixture.signal(created, "done", null)))
        .isEqualTo(WaitException.INVALID_ARGUMENT);
    assertThat(
            code(
                () ->
                    fixture.signal(created, "ok", null, "m".repeat(Signals.MAX_MESSAGE + 1), null)))
        .isEqualTo(WaitException.INVALID_ARGUMENT);
    assertThat(signalsStored(created)).isZero();
  }

  @Test
  void signal_members_aNameOutsideThemOrNoneIsRefused() {
    Waitpoints.Created created = fixture.create(request().members("a", "b"));

    assertThatThrownBy(() -> fixture.signal(created, "ok", "zed"))
        .hasMessageContaining("'zed' is not a member")
        .hasMessageContaining("a, b");
    assertThatThrownBy(() -> fixture.signal(created, "ok", null))
        .hasMessageContaining("say which member reports");
    assertThat(signalsStored(created)).isZero();
  }

  @Test
  void signal_quorumOfMembers_aMemberReportingTwiceCountsOnce_andItsLatestReportIsShown() {
    fixture.settings(Duration.ZERO, 20, Duration.ofDays(30));
    Waitpoints.Created created = fixture.create(request().members("a", "b", "c").quorum(2));

    fixture.signal(created, "ok", "a", "first", null);
    Signals.Outcome twice = fixture.signal(created, "ok", "a", "second", null);

    assertThat(twice.fired()).isFalse();
    assertThat(twice.message()).contains("1 of 2 needed reports are in");
    assertThat(fixture.view(created).reports())
        .extracting(Waits.Report::message)
        .containsExactly("second");
    Signals.Outcome quorum = fixture.signal(created, "ok", "c");
    assertThat(quorum.fired()).isTrue();
    assertThat(fixture.wakes()).hasSize(1);
    assertThat(fixture.wakes().get(0)).contains("2 of 3 members reported (quorum 2)");
  }

  @Test
  void signal_anonymousSignals_eachCountAsAMemberOfTheirOwn() {
    fixture.settings(Duration.ZERO, 20, Duration.ofDays(30));
    Waitpoints.Created created = fixture.create(request().quorum(2));

    assertThat(fixture.signal(created, "ok", null).fired()).isFalse();
    assertThat(fixture.signal(created, "ok", null).fired()).isTrue();
    assertThat(fixture.wakes().get(0)).contains("2 reports (quorum 2)");
  }

  @Test
  void signal_failWithFailFast_firesAtOnceWithTheFailure() {
    Waitpoints.Created created = fixture.create(request().members("a", "b", "c"));

    Signals.Outcome failed = fixture.signal(created, "fail", "b", "OOM at step 900", null);

    assertThat(failed.fired()).isTrue();
    assertThat(failed.state()).isEqualTo("resolved");
    assertThat(failed.message()).contains("fails fast");
    assertThat(fixture.wakes().get(0))
        .contains("fired: fail")
        .contains("OOM at step 900")
        .contains("1 of 3 members reported");
  }

  @Test
  void signal_failWithoutFailFast_countsTowardsTheQuorum_andTheRoundFiresFail() {
    fixture.settings(Duration.ZERO, 20, Duration.ofDays(30));
    Waitpoints.Created created = fixture.create(request().members("a", "b").failFast(false));

    Signals.Outcome failed = fixture.signal(created, "fail", "a");
    assertThat(failed.fired()).isFalse();
    assertThat(fixture.view(created).state()).isEqualTo("open");
    fixture.signal(created, "ok", "b");

    assertThat(fixture.wakes()).hasSize(1);
    assertThat(fixture.wakes().get(0)).contains("fired: fail").contains("2 of 2 members");
  }

  @Test
  void signal_progress_isRecordedButNeverFires_andOnlyTheNewestAreKept() {
    Waitpoints.Created created = fixture.create();

    for (int i = 1; i <= SignalIntake.KEEP_PROGRESS + 5; i++) {
      Signals.Outcome progress = fixture.signal(created, "progress", null, "step " + i, null);
      assertThat(progress.outcome()).isEqualTo(Signals.Outcome.PROGRESS);
      assertThat(progress.fired()).isFalse();
    }

    Waits.View view = fixture.view(created);
    assertThat(view.state()).isEqualTo("open");
    assertThat(view.progress())
        .hasSize(Waitpoints.SHOWN_PROGRESS)
        .last()
        .extracting(Waits.Report::message)
        .isEqualTo("step " + (SignalIntake.KEEP_PROGRESS + 5));
    assertThat(signalsStored(created)).isEqualTo(SignalIntake.KEEP_PROGRESS);
    fixture.tick(Duration.ofMinutes(5));
    assertThat(fixture.wakes()).isEmpty();
  }

  @Test
  void signal_mailbox_firesUpToMaxSignals_eachRoundWithItsOwnReports_thenResolves() {
    Waitpoints.Created created = fixture.create(request().maxSignals(3));

    for (int i = 1; i <= 3; i++) {
      fixture.clock.advance(Duration.ofMinutes(1));
      Signals.Outcome outcome = fixture.signal(created, "ok", null, "epoch " + i, null);
      assertThat(outcome.fired()).isTrue();
      assertThat(outcome.state()).isEqualTo(i < 3 ? "open" : "resolved");
    }
    Signals.Outcome fourth = fixture.signal(created, "ok", null);

    assertThat(fourth.outcome()).isEqualTo(Signals.Outcome.RESOLVED);
    assertThat(fixture.wakes()).hasSize(3);
    assertThat(fixture.wakes().get(0))
        .contains("epoch 1")
        .contains("after 1 min of waiting")
        .contains("stays open for 2 more fires");
    assertThat(fixture.wakes().get(1)).contains("epoch 2").doesNotContain("epoch 1");
    assertThat(fixture.wakes().get(2)).contains("epoch 3").contains("it will not fire again");
    assertThat(fixture.view(created).fires()).isEqualTo(3);
  }

  @Test
  void signal_afterCancel_isAnsweredResolvedAndNotRecorded() {
    Waitpoints.Created created = fixture.create();
    fixture.waitpoints.cancel(WaitFixture.SESSION, created.waitpoint().id());

    Signals.Outcome late = fixture.signal(created, "ok", null);

    assertThat(late.outcome()).isEqualTo(Signals.Outcome.RESOLVED);
    assertThat(late.state()).isEqualTo("cancelled");
    assertThat(late.message()).contains("been cancelled");
    assertThat(signalsStored(created)).isZero();
    assertThat(fixture.wakes()).isEmpty();
  }
}
