package dev.cortex.mcp.tool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.json.JsonMapper;

class ToolInvokerTest {
  static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir Path temp;

  record Echo(String text, int times) {}

  static Map<String, Object> echoInput() {
    return Schema.object()
        .required("text", Schema.string("text", 1, 10))
        .optional("times", Schema.integer("times", 1, 3))
        .build();
  }

  ToolInvoker invoker(ToolSpec... specs) {
    CortexHome home = new CortexHome(temp.resolve("home"), temp.resolve("home/data"));
    return new ToolInvoker(
        List.of(specs),
        home,
        Clock.fixed(Instant.parse("2026-01-02T03:04:05Z"), ZoneOffset.UTC),
        true);
  }

  static ToolSpec.Builder tool(String name, ToolHandler handler) {
    return ToolSpec.builder(name, handler)
        .title(name)
        .description(name)
        .hints(ToolHints.readOnlyLocal());
  }

  static ToolSpec echo() {
    return tool(
            "echo",
            call -> {
              Echo e = call.arguments(Echo.class);
              return Map.of("echoed", e.text().repeat(Math.max(1, e.times())));
            })
        .input(echoInput())
        .output(Schema.object().required("echoed", Schema.string("x")).build())
        .build();
  }

  ToolOutcome call(ToolInvoker invoker, String name, String json) {
    return invoker.call(name, JSON.readTree(json), ToolContext.ProgressSink.NONE);
  }

  @Test
  void call_validArguments_returnsStructuredResultMirroredAsText() {
    ToolOutcome outcome = call(invoker(echo()), "echo", "{\"text\":\"ab\",\"times\":2}");

    assertThat(outcome.isError()).isFalse();
    assertThat(outcome.body().path("echoed").asString()).isEqualTo("abab");
    assertThat(outcome.text()).isEqualTo("{\"echoed\":\"abab\"}");
  }

  @Test
  void call_missingRequired_outOfRange_tooLong_allReportedAtOnce() {
    ToolOutcome outcome = call(invoker(echo()), "echo", "{\"times\":9}");

    assertThat(outcome).isInstanceOf(ToolOutcome.Failure.class);
    ToolOutcome.Failure failure = (ToolOutcome.Failure) outcome;
    assertThat(failure.code()).isEqualTo("INVALID_ARGUMENT");
    assertThat(failure.message()).contains("text").contains("times");
  }

  @Test
  void call_stringWhereIntegerExpected_isNotCoerced() {
    ToolOutcome.Failure failure =
        (ToolOutcome.Failure) call(invoker(echo()), "echo", "{\"text\":\"a\",\"times\":\"2\"}");

    assertThat(failure.code()).isEqualTo("INVALID_ARGUMENT");
    assertThat(failure.message()).contains("times");
  }

  @Test
  void call_nullArguments_meanEmptyObject() {
    ToolSpec noArgs = tool("noop", call -> Map.of()).output(Schema.object().build()).build();

    assertThat(invoker(noArgs).call("noop", null, ToolContext.ProgressSink.NONE).isError())
        .isFalse();
  }

  @Test
  void call_handlerThrowsToolException_keepsItsCodeAndMessage() {
    ToolSpec failing =
        tool(
                "lookup",
                call -> {
                  throw ToolException.invalidReference("Claim c-1 was not found in project p.");
                })
            .output(Schema.object().build())
            .build();

    ToolOutcome.Failure failure = (ToolOutcome.Failure) call(invoker(failing), "lookup", "{}");

    assertThat(failure.code()).isEqualTo("INVALID_REFERENCE");
    assertThat(failure.message()).isEqualTo("Claim c-1 was not found in project p.");
    assertThat(failure.text())
        .isEqualTo(
            "{\"error\":{\"code\":\"INVALID_REFERENCE\",\"message\":\"Claim c-1 was not found in project p.\"}}");
  }

  @Test
  void call_handlerCrashes_isInternalWithoutLeakingDetails() {
    ToolSpec crashing =
        tool(
                "crash",
                call -> {
                  throw new IllegalStateException("SELECT * FROM secrets at /var/lib/cortex/x.db");
                })
            .output(Schema.object().build())
            .build();

    ToolOutcome.Failure failure = (ToolOutcome.Failure) call(invoker(crashing), "crash", "{}");

    assertThat(failure.code()).isEqualTo("INTERNAL");
    assertThat(failure.message())
        .doesNotContain("SELECT")
        .doesNotContain("/var/lib")
        .contains("crash");
  }

  @Test
  void call_resultOutsideOutputSchema_isInternal() {
    ToolSpec wrong =
        tool("wrong", call -> Map.of("count", "three"))
            .output(Schema.object().required("count", Schema.integer("n")).build())
            .build();

    assertThat(((ToolOutcome.Failure) call(invoker(wrong), "wrong", "{}")).code())
        .isEqualTo("INTERNAL");
  }

  @Test
  void call_unknownTool_listsServedTools() {
    ToolOutcome.Failure failure = (ToolOutcome.Failure) call(invoker(echo()), "ehco", "{}");

    assertThat(failure.code()).isEqualTo("UNKNOWN_TOOL");
    assertThat(failure.message()).contains("'ehco'").contains("echo");
  }

  @Test
  void fitText_overTheToolsLimit_spillsToToolResultsWithPreview() throws Exception {
    String big = "é".repeat(3000) + "END";
    ToolSpec bash =
        tool("remote_bash", call -> Map.of("output", call.fitText(big)))
            .output(Schema.object().required("output", Spill.SpillableText.schema("out")).build())
            .spillLimit(100)
            .build();

    ToolOutcome outcome = call(invoker(bash), "remote_bash", "{}");

    var output = outcome.body().path("output");
    assertThat(output.path("truncated").asBoolean()).isTrue();
    assertThat(output.path("total_chars").asLong()).isEqualTo(3003);
    Path saved = Path.of(output.path("saved_to").asString());
    assertThat(saved).startsWith(temp.resolve("home/tmp/tool-results"));
    assertThat(saved.getFileName().toString()).startsWith("remote_bash-20260102-030405-");
    assertThat(Files.readString(saved)).isEqualTo(big);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(saved)))
        .isEqualTo("rw-------");
    assertThat(output.path("text").asString().getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .hasSize(2048);
  }

  @Test
  void fitText_withinTheLimit_returnsTextUnchangedAndWritesNothing() {
    ToolSpec small =
        tool("small", call -> Map.of("output", call.fitText("hello")))
            .output(Schema.object().required("output", Spill.SpillableText.schema("out")).build())
            .spillLimit(100)
            .build();

    ToolOutcome outcome = call(invoker(small), "small", "{}");

    assertThat(outcome.body().path("output").path("text").asString()).isEqualTo("hello");
    assertThat(outcome.body().path("output").path("saved_to").isNull()).isTrue();
    assertThat(temp.resolve("home/tmp")).doesNotExist();
  }

  @Test
  void prepare_callsOnlyToolsThatDeclareWarmUpArguments_withThoseArguments() {
    java.util.List<String> seen = new java.util.concurrent.CopyOnWriteArrayList<>();
    ToolSpec warm =
        tool(
                "warm",
                call -> {
                  seen.add("warm " + call.arguments());
                  return Map.of();
                })
            .input(Schema.object().optional("zone", Schema.string("z")).build())
            .output(Schema.object().build())
            .warmUpWith(Map.of("zone", "UTC"))
            .build();
    ToolSpec cold =
        tool(
                "cold",
                call -> {
                  seen.add("cold");
                  return Map.of();
                })
            .output(Schema.object().build())
            .build();

    invoker(warm, cold).prepare();

    assertThat(seen).containsExactly("warm {\"zone\":\"UTC\"}");
  }

  @Test
  void warmUpWith_onAToolThatWrites_isRefusedAtDefinition() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                ToolSpec.builder("write", call -> Map.of())
                    .title("w")
                    .description("w")
                    .output(Schema.object().build())
                    .hints(new ToolHints(false, true, false, false))
                    .warmUpWith(Map.of())
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("write");
  }

  @Test
  void call_answerOverTheBound_isSavedWholeAndAnsweredWithPathLengthAndPreview() throws Exception {
    String big = "é".repeat(AnswerBound.MAX_CHARS);
    ToolSpec large =
        tool("large", call -> Map.of("echoed", big))
            .output(Schema.object().required("echoed", Schema.string("x")).build())
            .build();

    ToolOutcome outcome = call(invoker(large), "large", "{}");

    assertThat(outcome.isError()).as(outcome.text()).isFalse();
    assertThat(outcome.text().length()).isLessThan(AnswerBound.MAX_CHARS / 10);
    assertThat(outcome.body().has("echoed")).isFalse();
    var spilled = outcome.body().path("spilled");
    Path file = Path.of(spilled.path("saved_to").asString());
    String whole = Json.write(Map.of("echoed", big));
    assertThat(Files.readString(file)).isEqualTo(whole);
    assertThat(file.getFileName().toString()).startsWith("large-").endsWith(".json");
    assertThat(file.getParent()).isEqualTo(temp.resolve("home").resolve("tmp/tool-results"));
    assertThat(Files.getPosixFilePermissions(file))
        .isEqualTo(PosixFilePermissions.fromString("rw-------"));
    assertThat(spilled.path("total_chars").asLong()).isEqualTo(whole.length());
    assertThat(spilled.path("preview").asString()).isEqualTo(Spill.preview(whole));
    assertThat(spilled.path("preview").asString().getBytes(java.nio.charset.StandardCharsets.UTF_8))
        .hasSizeLessThanOrEqualTo(Spill.PREVIEW_BYTES);
    assertThat(new SchemaCheck(large.outputSchema()).problems(outcome.body()))
        .as("a spilled answer fits the tool's output schema")
        .isEmpty();
  }

  @Test
  void call_answerWithinTheBound_isAnsweredWhole() {
    ToolOutcome outcome = call(invoker(echo()), "echo", "{\"text\":\"hi\",\"times\":1}");

    assertThat(outcome.body().path("echoed").asString()).as(outcome.text()).isEqualTo("hi");
    assertThat(outcome.text()).isEqualTo("{\"echoed\":\"hi\"}");
  }
}
