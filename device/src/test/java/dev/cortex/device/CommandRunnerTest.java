package dev.cortex.device;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import dev.cortex.testing.Eventually;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hub's commands as the device's runner takes them: bound, run on real actions and processes,
 * their output streamed, and exactly one result each, within the deadline the command's timeout
 * gives.
 */
class CommandRunnerTest {
  static final Map<String, String> ENV = System.getenv();
  static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  final List<HubMessage> sent = new CopyOnWriteArrayList<>();
  CommandRunner runner;

  CommandRunner runner(Clock clock) {
    Jobs jobs = new Jobs(dir.resolve("jobs"), ENV, dir, clock);
    runner =
        new CommandRunner(
            new ShellAction(ENV, dir, 1 << 20, false, jobs),
            new FileActions(new AgentsChain(null)),
            new GlobAction(dir),
            new GrepAction(dir, null, ENV),
            jobs,
            clock);
    return runner;
  }

  CommandRunner runner() {
    return runner(Clock.systemUTC());
  }

  @AfterEach
  void close() {
    if (runner != null) {
      runner.close();
    }
  }

  static HubMessage.Command command(String id, String action, Object params, long timeoutMillis) {
    return new HubMessage.Command(id, action, WireJson.tree(params), timeoutMillis);
  }

  HubMessage.Result resultOf(String id) {
    Eventually.until(
        "the result of " + id,
        WAIT,
        () -> sent.stream().anyMatch(m -> m instanceof HubMessage.Result r && r.id().equals(id)));
    List<HubMessage.Result> results =
        sent.stream()
            .filter(m -> m instanceof HubMessage.Result r && r.id().equals(id))
            .map(HubMessage.Result.class::cast)
            .toList();
    assertThat(results).hasSize(1);
    return results.get(0);
  }

  @Test
  void submit_bash_streamsItsOutputThenAnswersOneResult() {
    runner()
        .submit(
            command(
                "c1",
                "bash",
                Map.of("command", "echo one; echo two", "timeout_seconds", 10),
                60_000),
            sent::add);

    HubMessage.Result result = resultOf("c1");
    assertThat(result.ok()).isTrue();
    assertThat(result.result().path("exit_code").asInt()).isZero();
    assertThat(result.result().path("output").asString()).isEqualTo("one\ntwo\n");
    List<HubMessage> before = sent.subList(0, sent.indexOf(result));
    assertThat(before).allSatisfy(m -> assertThat(m).isInstanceOf(HubMessage.Output.class));
    assertThat(before.stream().map(m -> ((HubMessage.Output) m).data()).reduce("", String::concat))
        .isEqualTo("one\ntwo\n");
  }

  @Test
  void submit_fileActions_answerTheirRecords() throws Exception {
    Path file = dir.resolve("notes.txt");
    runner()
        .submit(
            command("w", "write", Map.of("file_path", file.toString(), "content", "hi\n"), 10_000),
            sent::add);
    assertThat(resultOf("w").result().path("created").asBoolean()).isTrue();

    runner.submit(command("r", "read", Map.of("file_path", file.toString()), 10_000), sent::add);

    assertThat(resultOf("r").result().path("text").asString()).isEqualTo("     1\thi\n");
    assertThat(Files.readString(file)).isEqualTo("hi\n");
  }

  @Test
  void submit_readBytes_answersTheChunkOverTheWire() throws Exception {
    Path file = Files.write(dir.resolve("blob.bin"), new byte[] {0, 1, 2, 0});

    runner()
        .submit(
            command(
                "b",
                "read_bytes",
                Map.of("file_path", file.toString(), "offset", 1, "length", 2),
                10_000),
            sent::add);

    HubMessage.Result result = resultOf("b");
    assertThat(java.util.Base64.getDecoder().decode(result.result().path("data").asString()))
        .containsExactly(1, 2);
    assertThat(result.result().path("size").asLong()).isEqualTo(4);
    assertThat(result.result().path("eof").asBoolean()).isFalse();
  }

  @Test
  void submit_readBytesWithoutALength_answersInvalidArgument() throws Exception {
    Path file = Files.write(dir.resolve("blob.bin"), new byte[] {0});

    runner()
        .submit(
            command("b", "read_bytes", Map.of("file_path", file.toString(), "offset", 0), 10_000),
            sent::add);

    assertThat(resultOf("b").error().code()).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(resultOf("b").error().message()).startsWith("length is 1 to");
  }

  @Test
  void submit_unknownAction_answersUnsupported() {
    runner().submit(command("c1", "teleport", Map.of(), 10_000), sent::add);

    HubMessage.Result result = resultOf("c1");
    assertThat(result.error().code()).isEqualTo(Codes.UNSUPPORTED);
    assertThat(result.error().message()).contains("'teleport'");
  }

  @Test
  void submit_malformedParameters_answersInvalidArgumentNamingTheAction() {
    runner().submit(command("c1", "read", Map.of("offset", "three"), 10_000), sent::add);

    HubMessage.Result result = resultOf("c1");
    assertThat(result.error().code()).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(result.error().message())
        .startsWith("The parameters of read are malformed")
        .contains("'offset'")
        .doesNotContain("java.");
  }

  @Test
  void submit_withoutATimeout_answersInvalidArgument() {
    runner().submit(command("c1", "glob", Map.of("pattern", "*"), 0), sent::add);

    HubMessage.Result result = resultOf("c1");
    assertThat(result.error().code()).isEqualTo(Codes.INVALID_ARGUMENT);
    assertThat(result.error().message()).contains("timeout_millis above 0");
  }

  @Test
  void submit_actionRefused_answersItsCodeAndSentence() {
    runner()
        .submit(
            command("c1", "read", Map.of("file_path", dir.resolve("none").toString()), 10_000),
            sent::add);

    HubMessage.Result result = resultOf("c1");
    assertThat(result.error().code()).isEqualTo(Codes.NOT_FOUND);
    assertThat(result.error().message()).startsWith("No such file or directory");
  }

  @Test
  void cancel_runningCommand_stopsItAndItsResultSaysSo() {
    runner()
        .submit(
            command(
                "c1",
                "bash",
                Map.of("command", "echo started; sleep 60", "timeout_seconds", 600),
                700_000),
            sent::add);
    Eventually.until(
        "the command has started",
        WAIT,
        () -> sent.stream().anyMatch(m -> m instanceof HubMessage.Output));

    runner.cancel("c1");

    HubMessage.Result result = resultOf("c1");
    assertThat(result.result().path("cancelled").asBoolean()).isTrue();
    assertThat(result.result().path("note").asString()).startsWith("Cancelled:");
  }

  @Test
  void submit_searchStillGoingAtTheCommandsDeadline_answersUnavailable() throws Exception {
    Files.writeString(dir.resolve("a.txt"), "x\n");

    runner(new TickingClock())
        .submit(command("c1", "grep", Map.of("pattern", "x"), 500), sent::add);

    HubMessage.Result result = resultOf("c1");
    assertThat(result.error().code()).isEqualTo(Codes.UNAVAILABLE);
    assertThat(result.error().message()).contains("did not finish in the command's time");
  }

  /** A clock a second further on at every look: any deadline under a second falls at once. */
  static final class TickingClock extends Clock {
    private Instant now = Instant.parse("2026-12-01T10:00:00Z");

    @Override
    public synchronized Instant instant() {
      now = now.plusSeconds(1);
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
