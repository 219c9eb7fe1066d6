package dev.cortex.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import dev.cortex.protocol.webhook.Spool;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.MovableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Background jobs as real detached processes, followed through their records on disk. */
class JobsTest {
  static final Map<String, String> ENV = System.getenv();
  static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:15:00Z"));

  Jobs jobs() {
    return new Jobs(dir.resolve("jobs"), ENV, dir, clock);
  }

  static Actions.JobInfo status(Jobs jobs, String id) throws ActionException {
    return jobs.handle(new Actions.Job("status", id, null)).jobs().get(0);
  }

  static void awaitEnd(Jobs jobs, String id) {
    Eventually.until(
        "job " + id + " ends", WAIT, () -> !status(jobs, id).state().equals("running"));
  }

  @Test
  void start_commandThatEnds_isExitedWithItsCodeAndKeepsItsOutput() throws Exception {
    Jobs jobs = jobs();

    Actions.JobInfo started = jobs.start("echo hello; exit 7", "greets", null);

    assertThat(started.id()).matches("20261201-101500-[0-9a-f]{6}");
    assertThat(started.command()).isEqualTo("echo hello; exit 7");
    assertThat(started.startedAt()).isEqualTo("2026-12-01T10:15:00Z");
    awaitEnd(jobs, started.id());
    Actions.JobInfo ended = status(jobs, started.id());
    assertThat(ended.state()).isEqualTo("exited");
    assertThat(ended.exitCode()).isEqualTo(7);
    assertThat(ended.endedAt()).isNotNull();
    Actions.JobResult output = jobs.handle(new Actions.Job("output", started.id(), null));
    assertThat(output.output()).isEqualTo("hello\n");
    assertThat(output.outputCut()).isFalse();
  }

  @Test
  void handle_list_givesTheJobsNewestFirst() throws Exception {
    Jobs jobs = jobs();
    Actions.JobInfo first = jobs.start("true", null, null);
    clock.advance(Duration.ofMinutes(1));
    Actions.JobInfo second = jobs.start("true", null, null);

    List<Actions.JobInfo> listed = jobs.handle(new Actions.Job(null, null, null)).jobs();

    assertThat(listed).extracting(Actions.JobInfo::id).containsExactly(second.id(), first.id());
  }

  @Test
  void handle_outputWithTailBytes_givesTheEndAndSaysItIsCut() throws Exception {
    Jobs jobs = jobs();
    Actions.JobInfo job = jobs.start("seq 1 1000", null, null);
    awaitEnd(jobs, job.id());

    Actions.JobResult output = jobs.handle(new Actions.Job("output", job.id(), 9));

    assertThat(output.output()).isEqualTo("999\n1000\n");
    assertThat(output.outputCut()).isTrue();
  }

  @Test
  void handle_kill_endsARunningJobAndEverythingItStarted() throws Exception {
    Jobs jobs = jobs();
    Actions.JobInfo job = jobs.start("sleep 60 & sleep 60; wait", null, null);
    assertThat(status(jobs, job.id()).state()).isEqualTo("running");

    Actions.JobInfo killed = jobs.handle(new Actions.Job("kill", job.id(), null)).jobs().get(0);

    assertThat(killed.state()).isEqualTo("killed");
    Eventually.until(
        "the job's shell is gone",
        WAIT,
        () -> ProcessHandle.of(job.pid()).map(h -> !h.isAlive()).orElse(true));
  }

  @Test
  void handle_badOrUnknownJob_isRefusedSayingWhatAJobIdLooksLike() {
    Jobs jobs = jobs();

    assertThatThrownBy(() -> jobs.handle(new Actions.Job("status", "nonsense", null)))
        .isInstanceOfSatisfying(
            ActionException.class,
            e -> assertThat(e.body().code()).isEqualTo(Codes.INVALID_ARGUMENT))
        .hasMessageContaining("looks like 20261201-101500-3fa2c1");
    assertThatThrownBy(() -> jobs.handle(new Actions.Job("status", "20261201-101500-abcdef", null)))
        .isInstanceOfSatisfying(
            ActionException.class, e -> assertThat(e.body().code()).isEqualTo(Codes.NOT_FOUND));
    assertThatThrownBy(() -> jobs.handle(new Actions.Job("restart", null, null)))
        .hasMessageContaining("list, status, output or kill");
  }

  @Test
  void signalEnded_jobWithAWaitpoint_writesItsSignalOnce() throws Exception {
    Jobs jobs = jobs();
    Spool spool = new Spool(dir.resolve("spool"));
    Actions.JobInfo job =
        jobs.start(
            "echo failing; exit 1", null, new Actions.JobSignal("wp-3fa2c1d0e4b5", "secret-1"));
    assertThat(job.waitpoint()).isEqualTo("wp-3fa2c1d0e4b5");
    awaitEnd(jobs, job.id());

    assertThat(jobs.signalEnded(spool)).isEqualTo(1);
    assertThat(jobs.signalEnded(spool)).isZero();

    List<Spool.Entry> entries = spool.take(10, clock.instant().plusSeconds(60));
    assertThat(entries).hasSize(1);
    var signal = entries.get(0).signal();
    assertThat(signal.id()).isEqualTo("wp-3fa2c1d0e4b5");
    assertThat(signal.secret()).isEqualTo("secret-1");
    assertThat(signal.status()).isEqualTo("fail");
    assertThat(signal.message()).isEqualTo("job " + job.id() + " exited with code 1");
    assertThat(signal.signalId()).isEqualTo("job-" + job.id());
    assertThat(signal.data().path("output_tail").asString()).isEqualTo("failing\n");
  }
}
