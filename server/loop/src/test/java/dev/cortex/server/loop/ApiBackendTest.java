package dev.cortex.server.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.caller.Sessions;
import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.Composition;
import dev.cortex.mcp.compose.McpAssembly;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.models.HttpModelClient;
import dev.cortex.models.ModelCalls;
import dev.cortex.models.ModelCatalog;
import dev.cortex.server.sessions.backend.BackendEvent;
import dev.cortex.server.sessions.backend.RunningTurn;
import dev.cortex.server.sessions.backend.TurnRequest;
import dev.cortex.testing.FakeModelApi;
import dev.cortex.testing.ScriptedAnswer;
import io.modelcontextprotocol.server.McpServer;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loop against a local server that speaks the Anthropic Messages API, with a real MCP server in
 * the same process whose tools are the test's: {@code echo} answers at once, {@code slow} waits
 * until it is cancelled.
 */
class ApiBackendTest {
  @TempDir Path root;

  FakeModelApi model;
  ApiBackend backend;
  CortexHome home;
  final CountDownLatch slowStarted = new CountDownLatch(1);
  final CountDownLatch slowCancelled = new CountDownLatch(1);
  final List<BackendEvent> events = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() {
    model = FakeModelApi.start();
    home = new CortexHome(root, root.resolve("data"));
    Map<String, String> env =
        Map.of("ANTHROPIC_API_KEY", "sk-test", "CORTEX_ANTHROPIC_BASE_URL", model.url());
    backend =
        new ApiBackend(
            home,
            env,
            () -> ModelCatalog.builtIn().withBaseUrlsFrom(env),
            new HttpModelClient(),
            this::server,
            ModelCalls.RetryPolicy.NONE,
            ModelCalls.Sleeper.REAL,
            Clock.systemUTC());
  }

  @AfterEach
  void stop() {
    model.close();
  }

  io.modelcontextprotocol.server.McpAsyncServer server(
      Map<String, String> environment,
      io.modelcontextprotocol.spec.McpServerTransportProvider transport,
      dev.cortex.mcp.caller.CancelSignals cancellations) {
    ToolSpec echo =
        ToolSpec.builder("echo", call -> Map.of("said", call.arguments().path("text").asString()))
            .title("Echo")
            .description("Says the text back.")
            .input(Schema.object().required("text", Schema.string("What to say.")).build())
            .output(Schema.object().required("said", Schema.string("The text.")).build())
            .hints(ToolHints.readOnlyLocal())
            .build();
    ToolSpec agent =
        ToolSpec.builder("agent", call -> Map.of("said", "no"))
            .title("Agent")
            .description("Never offered to the loop.")
            .input(Schema.object().build())
            .output(Schema.object().required("said", Schema.string("x")).build())
            .hints(ToolHints.readOnlyLocal())
            .build();
    ToolSpec slow =
        ToolSpec.builder(
                "slow",
                call -> {
                  CountDownLatch cancelled = new CountDownLatch(1);
                  call.context().cancellation().onCancel(cancelled::countDown);
                  slowStarted.countDown();
                  try {
                    if (cancelled.await(60, TimeUnit.SECONDS)) {
                      slowCancelled.countDown();
                    }
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  return Map.of("said", "late");
                })
            .title("Slow")
            .description("Waits until it is cancelled.")
            .input(Schema.object().build())
            .output(Schema.object().required("said", Schema.string("x")).build())
            .hints(ToolHints.readOnlyLocal())
            .blocking()
            .build();
    List<ToolSpec> tools = List.of(echo, agent, slow);
    Composition composition =
        new Composition(
            List.of(CapabilityGroup.ofTools("test", "cortex-test", "test", tools)), tools);
    return McpAssembly.build(
        McpServer.async(transport),
        composition,
        new ToolInvoker(tools, home, Clock.systemUTC()),
        new McpAssembly.ServerIdentity("test", "Test", "0", null),
        new McpAssembly.TransportHooks(dev.cortex.mcp.caller.RequestWithdrawal.NONE, cancellations),
        new Sessions(SessionIdentity.fromEnvironment(environment)));
  }

  TurnRequest request(String resume, TurnRequest.Message... messages) {
    return new TurnRequest(
        "ses-1",
        List.of(messages),
        resume,
        "claude-sonnet-4-5",
        root,
        Map.of(
            "ANTHROPIC_API_KEY", "sk-test",
            "CORTEX_ANTHROPIC_BASE_URL", model.url(),
            "CORTEX_MCP_BUNDLES", "test"),
        root.resolve("mcp-config.json"),
        false,
        null);
  }

  BackendEvent.End run(TurnRequest request) throws Exception {
    RunningTurn turn = backend.start(request, events::add);
    return turn.await(Duration.ofSeconds(60)).orElseThrow();
  }

  String started() {
    return events.stream()
        .filter(BackendEvent.Started.class::isInstance)
        .map(e -> ((BackendEvent.Started) e).backendSessionId())
        .reduce((a, b) -> b)
        .orElseThrow();
  }

  @Test
  void turn_runsTheToolsTheModelCalls_untilItAnswers() throws Exception {
    model.answers(
        FakeModelApi.toolCall("toolu_1", "echo", "{\"text\":", "\"hi\"}").usage(10, 2),
        FakeModelApi.text("It said hi.\n\nThat is all.").usage(20, 4));

    BackendEvent.End end = run(request(null, new TurnRequest.Message("1", "echo hi")));

    assertThat(end.status()).isEqualTo(BackendEvent.Status.COMPLETED);
    assertThat(end.result()).isEqualTo("It said hi.\n\nThat is all.");
    assertThat(events).contains(new BackendEvent.Handshake(true), new BackendEvent.Acked("1"));
    assertThat(events)
        .filteredOn(BackendEvent.ToolResult.class::isInstance)
        .singleElement()
        .satisfies(
            r -> assertThat(((BackendEvent.ToolResult) r).content()).contains("\"said\":\"hi\""));
    assertThat(events)
        .filteredOn(BackendEvent.Text.class::isInstance)
        .as("paragraph by paragraph")
        .containsExactly(
            new BackendEvent.Text("It said hi."), new BackendEvent.Text("That is all."));
    assertThat(events).filteredOn(BackendEvent.Cost.class::isInstance).hasSize(2);
    assertThat(model.request(0).body().path("tools").findValuesAsString("name"))
        .containsExactly("echo", "slow");
  }

  @Test
  void nextTurn_resumesTheConversation_andAMessageOfferedAgainIsHeardOnce() throws Exception {
    model.answers(FakeModelApi.text("one"), FakeModelApi.text("two"));
    run(request(null, new TurnRequest.Message("1", "first")));
    String conversation = started();

    // The server died after the conversation was saved and before the ack was recorded: the
    // message is offered again, with a new one.
    BackendEvent.End end =
        run(
            request(
                conversation,
                new TurnRequest.Message("1", "first"),
                new TurnRequest.Message("2", "second")));

    assertThat(end.result()).isEqualTo("two");
    String sent = model.request(1).body().path("messages").toString();
    assertThat(sent.split("\"first\"", -1)).as("the first message once").hasSize(2);
    assertThat(sent).contains("one").contains("second");
    assertThat(events)
        .filteredOn(BackendEvent.Acked.class::isInstance)
        .containsExactly(
            new BackendEvent.Acked("1"), new BackendEvent.Acked("1"), new BackendEvent.Acked("2"));
  }

  @Test
  void stop_duringAToolCall_cancelsTheTool_andEndsStopped() throws Exception {
    model.answers(FakeModelApi.toolCall("toolu_s", "slow", "{}"));
    RunningTurn turn =
        backend.start(request(null, new TurnRequest.Message("1", "go")), events::add);
    assertThat(slowStarted.await(60, TimeUnit.SECONDS)).isTrue();

    turn.stop();

    assertThat(slowCancelled.await(60, TimeUnit.SECONDS)).as("the tool heard the cancel").isTrue();
    BackendEvent.End end = turn.await(Duration.ofSeconds(60)).orElseThrow();
    assertThat(end.status()).isEqualTo(BackendEvent.Status.STOPPED);
    assertThat(events.get(events.size() - 1)).isEqualTo(end);
  }

  @Test
  void stop_duringAModelCall_endsItsStream() throws Exception {
    ScriptedAnswer held =
        model.answer(FakeModelApi.reply().text("thinking...").hold().text("more"));
    RunningTurn turn =
        backend.start(request(null, new TurnRequest.Message("1", "go")), events::add);
    assertThat(held.awaitHeld()).isTrue();

    turn.stop();

    BackendEvent.End end = turn.await(Duration.ofSeconds(60)).orElseThrow();
    assertThat(end.status()).isEqualTo(BackendEvent.Status.STOPPED);
    assertThat(held.awaitClientGone()).as("the connection was closed").isTrue();
    held.release();
  }

  @Test
  void inject_betweenModelCalls_joinsTheToolOutputs() throws Exception {
    ScriptedAnswer held =
        model.answer(FakeModelApi.reply().hold().toolCall("toolu_1", "echo", "{\"text\":\"a\"}"));
    model.answers(FakeModelApi.text("both"));
    RunningTurn turn =
        backend.start(request(null, new TurnRequest.Message("1", "go")), events::add);
    assertThat(held.awaitHeld()).isTrue();

    assertThat(turn.inject("2", "and this")).isTrue();
    held.release();

    assertThat(turn.await(Duration.ofSeconds(60)).orElseThrow().result()).isEqualTo("both");
    assertThat(events).contains(new BackendEvent.Acked("2"));
    String last = model.request(1).body().path("messages").get(2).toString();
    assertThat(last).contains("tool_result").contains("and this");
    assertThat(turn.inject("3", "too late")).as("the turn has ended").isFalse();
  }

  @Test
  void start_withoutAKey_isRefusedBeforeAnyCall() {
    TurnRequest keyless =
        new TurnRequest(
            "ses-1",
            List.of(new TurnRequest.Message("1", "x")),
            null,
            "claude-sonnet-4-5",
            root,
            Map.of("CORTEX_ANTHROPIC_BASE_URL", model.url()),
            root.resolve("mcp-config.json"),
            false,
            null);

    org.assertj.core.api.Assertions.assertThatThrownBy(() -> backend.start(keyless, events::add))
        .hasMessageContaining("ANTHROPIC_API_KEY");
    assertThat(model.requests()).isEmpty();
  }
}
