package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.cli.ToolContract.Outcome;
import dev.cortex.testing.Checkout;
import dev.cortex.testing.CortexProcess;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex mcp} in its default composition on stdio, driven by the Java SDK client, with the
 * calls the workflow protocol tests make over and over. Progress notifications are collected.
 */
final class WorkflowServer implements AutoCloseable {
  /** The shipped example workflows, in the checkout the jar was built from. */
  static final Path EXAMPLES = repository().resolve("examples").resolve("workflows");

  /** Approves every confirmation, as a human ticking the box and accepting would. */
  static final Function<McpSchema.ElicitFormRequest, McpSchema.ElicitResult> APPROVE =
      request ->
          new McpSchema.ElicitResult(McpSchema.ElicitResult.Action.ACCEPT, Map.of("approve", true));

  final Path home;
  final List<McpSchema.ProgressNotification> progress = new CopyOnWriteArrayList<>();

  /** The confirmations the server asked through elicitation, in order. */
  final List<McpSchema.ElicitFormRequest> asked = new CopyOnWriteArrayList<>();

  private final McpSyncClient client;

  private WorkflowServer(
      Path home,
      Map<String, String> env,
      Function<McpSchema.ElicitFormRequest, McpSchema.ElicitResult> elicitation,
      List<String> jvmOptions) {
    this.home = home;
    List<String> command = CortexProcess.command(jvmOptions, "mcp");
    ServerParameters server =
        ServerParameters.builder(command.get(0))
            .args(command.subList(1, command.size()))
            .env(env)
            .build();
    McpClient.SyncSpec spec =
        McpClient.sync(new StdioClientTransport(server, McpClients.MAPPER))
            .requestTimeout(Duration.ofSeconds(120))
            .initializationTimeout(Duration.ofSeconds(120))
            .progressConsumer(progress::add);
    if (elicitation != null) {
      spec.capabilities(McpSchema.ClientCapabilities.builder().elicitation().build())
          .elicitation(
              request -> {
                asked.add(request);
                return elicitation.apply(request);
              });
    }
    this.client = spec.build();
    client.initialize();
  }

  /**
   * A server with CORTEX_HOME in {@code home} and {@code extra} set over the test's environment,
   * driven by a client that approves every run through elicitation.
   */
  static WorkflowServer start(Path home, Map<String, String> extra) {
    return start(home, extra, APPROVE);
  }

  /**
   * A server driven by a client that answers confirmations with {@code elicitation}, or does not
   * declare elicitation when it is null; {@code jvmOptions} go to the server's JVM.
   */
  static WorkflowServer start(
      Path home,
      Map<String, String> extra,
      Function<McpSchema.ElicitFormRequest, McpSchema.ElicitResult> elicitation,
      String... jvmOptions) {
    Map<String, String> env = new HashMap<>(FakeZenity.headless(CortexProcess.env(home)));
    env.putAll(extra);
    return new WorkflowServer(home, env, elicitation, List.of(jvmOptions));
  }

  static WorkflowServer start(Path home) {
    return start(home, Map.of());
  }

  /** The checkout's root. */
  static Path repository() {
    return Checkout.root();
  }

  /** The shipped example {@code name}.yaml, as an absolute path. */
  static String example(String name) {
    Path file = EXAMPLES.resolve(name + ".yaml");
    assertThat(file).exists();
    return file.toString();
  }

  /** Writes {@code yaml} to {@code dir/name}.yaml and returns its absolute path. */
  static String manifest(Path dir, String name, String yaml) throws IOException {
    Path file = dir.resolve(name + ".yaml");
    Files.writeString(file, yaml);
    return file.toAbsolutePath().toString();
  }

  Outcome call(String tool, Map<String, Object> arguments) {
    return McpClients.call(client, tool, arguments);
  }

  /** Calls {@code tool} with a progress token in {@code _meta}. */
  Outcome call(String tool, Map<String, Object> arguments, String progressToken) {
    McpSchema.CallToolResult result =
        client.callTool(
            McpSchema.CallToolRequest.builder()
                .name(tool)
                .arguments(arguments)
                .progressToken(progressToken)
                .build());
    String text = ((McpSchema.TextContent) result.content().get(0)).text();
    if (Boolean.TRUE.equals(result.isError())) {
      return new Outcome(true, ToolContract.JSON.readTree(text), text);
    }
    return new Outcome(false, ToolContract.JSON.valueToTree(result.structuredContent()), text);
  }

  /** Calls a tool that must succeed and returns its structured result. */
  JsonNode ok(String tool, Map<String, Object> arguments) {
    Outcome outcome = call(tool, arguments);
    assertThat(outcome.isError()).as("%s %s failed: %s", tool, arguments, outcome.text()).isFalse();
    return outcome.structured();
  }

  /** Calls a tool that must fail with {@code code} and returns the outcome. */
  Outcome fails(String tool, Map<String, Object> arguments, String code) {
    Outcome outcome = call(tool, arguments);
    assertThat(outcome.isError()).as("%s %s should fail", tool, arguments).isTrue();
    assertThat(outcome.errorCode()).as(outcome.errorMessage()).isEqualTo(code);
    return outcome;
  }

  /** Runs a workflow to its end and returns the trace (whatever its status). */
  JsonNode run(String workflow, Map<String, Object> params) {
    return ok("run", EvidenceServer.args("workflow", workflow, "params", params));
  }

  List<ToolContract.Listed> tools() {
    return McpClients.list(client);
  }

  /** How many runs the server knows of. */
  int runCount() {
    return ok("status", Map.of()).path("runs").path("total").asInt();
  }

  /** Polls runs_show until {@code done} holds of the trace, for at most {@code limit}. */
  JsonNode awaitRun(String runId, Predicate<JsonNode> done, Duration limit)
      throws InterruptedException {
    Instant deadline = Instant.now().plus(limit);
    while (true) {
      JsonNode trace = ok("runs_show", Map.of("run_id", runId));
      if (done.test(trace)) {
        return trace;
      }
      assertThat(Instant.now()).as("run %s still %s", runId, trace).isBefore(deadline);
      Thread.sleep(100);
    }
  }

  /** The step {@code id} of a trace. */
  static JsonNode step(JsonNode trace, String id) {
    for (JsonNode step : trace.path("steps")) {
      if (step.path("id").asString().equals(id)) {
        return step;
      }
    }
    throw new AssertionError("no step " + id + " in " + trace);
  }

  @Override
  public void close() {
    client.closeGracefully();
  }
}
