package dev.cortex.e2e.agentserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.Outcome;
import dev.cortex.testing.RawStdio;
import dev.cortex.testing.ToolNames;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The shell tools of {@code core}, {@code remote_bash} and {@code remote_job}, through everything
 * they cross: the Java SDK client, {@code cortex mcp} on stdio, the agent server's webhook and hub,
 * and real {@code cortex client} devices on loopback ({@link RemoteDevices}); and the device list,
 * offline devices and bad arguments, which every remote tool shares.
 */
class RemoteShellIT extends OnTwoDevices {
  static Outcome bash(String device, String command) {
    return call("remote_bash", Map.of("device", device, "command", command));
  }

  @Test
  void toolsList_firstRemoteToolCarriesTheDeviceCatalogue_windowsMarked() {
    Map<String, String> descriptions = new HashMap<>();
    client.listTools().tools().forEach(t -> descriptions.put(t.name(), t.description()));

    assertThat(descriptions.keySet()).containsAll(ToolNames.CORE);
    assertThat(descriptions.get("remote_bash"))
        .contains("- box1 (linux): First test box")
        .contains("- box2 (linux)")
        .contains("- winbox [Windows");
    assertThat(descriptions.get("remote_read")).doesNotContain("box1");
  }

  @Test
  void remoteBash_returnsExitCodeAndInterleavedOutput() {
    Outcome result = bash("box1", "echo out; echo err >&2; echo more; exit 3");

    assertThat(result.isError()).as(result.text()).isFalse();
    assertThat(result.structured().path("exit_code").asInt()).isEqualTo(3);
    assertThat(result.structured().path("output").path("text").asString())
        .isEqualTo("out\nerr\nmore\n");
    assertThat(result.structured().path("timed_out").asBoolean()).isFalse();
  }

  @Test
  void remoteBash_timeout_endsTheWholeGroupWithExitCode124() throws Exception {
    Path pids = files.resolve("timeout-pids");
    Outcome result =
        call(
            "remote_bash",
            Map.of(
                "device",
                "box2",
                "command",
                "sleep 300 & echo $! > " + pids + "; echo started; wait",
                "timeout",
                2));

    assertThat(result.structured().path("exit_code").asInt()).isEqualTo(124);
    assertThat(result.structured().path("timed_out").asBoolean()).isTrue();
    assertThat(result.structured().path("output").path("text").asString()).contains("started");
    assertThat(result.structured().path("note").asString()).contains("Timed out after 2 s");
    long child = Long.parseLong(Files.readString(pids).strip());
    Eventually.until(
        "the backgrounded child to end",
        AgentServer.LIMIT,
        () -> ProcessHandle.of(child).map(p -> !p.isAlive()).orElse(true));
  }

  @Test
  void remoteBash_cancelledByTheClient_endsTheCommandsWholeProcessGroup() throws Exception {
    Path leader = files.resolve("cancel-leader");
    Path child = files.resolve("cancel-child");
    Map<String, String> env = new HashMap<>(CortexProcess.env(serverHome));
    env.put("CORTEX_MCP_BUNDLES", "core");
    try (RawStdio raw = RawStdio.initialized(env, "{}", List.of())) {
      raw.call(
          7,
          "remote_bash",
          "{\"device\":\"box1\",\"command\":\"sleep 301 & echo $! > "
              + child
              + "; echo $$ > "
              + leader
              + "; sleep 300\"}");
      Eventually.until(
          "the command to start",
          AgentServer.LIMIT,
          () -> Files.isRegularFile(leader) && Files.isRegularFile(child));
      long leaderPid = Long.parseLong(Files.readString(leader).strip());
      long childPid = Long.parseLong(Files.readString(child).strip());

      raw.send(
          "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":7,\"reason\":\"user pressed stop\"}}");

      Eventually.until(
          "the command and its child to end",
          AgentServer.LIMIT,
          () ->
              !ProcessHandle.of(leaderPid).map(ProcessHandle::isAlive).orElse(false)
                  && !ProcessHandle.of(childPid).map(ProcessHandle::isAlive).orElse(false));
      raw.call(8, "current_time", "{}");
      JsonNode next = raw.next();
      assertThat(next.path("id").asInt())
          .as("no answer to the cancelled call: %s", next)
          .isEqualTo(8);
    }
  }

  @Test
  void remoteBash_hugeOutput_isSpilledWithAPreview() throws Exception {
    Outcome result = bash("box1", "seq 1 20000");

    JsonNode output = result.structured().path("output");
    assertThat(output.path("truncated").asBoolean()).isTrue();
    assertThat(output.path("total_chars").asLong()).isGreaterThan(30_000);
    assertThat(output.path("text").asString().getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(2048);
    Path saved = Path.of(output.path("saved_to").asString());
    assertThat(saved).startsWith(serverHome.resolve("tmp").resolve("tool-results"));
    assertThat(Files.readString(saved)).startsWith("1\n2\n").endsWith("19999\n20000\n");
  }

  @Test
  void remoteBash_outputBeyondTheDevicesCapture_keepsItsStartAndEnd() throws Exception {
    Outcome result =
        bash(
            "box2",
            "printf 'first\\n'; head -c 6000000 /dev/zero | tr '\\0' a; printf '\\nlast\\n'");

    assertThat(result.structured().path("cut_on_device").asBoolean()).isTrue();
    assertThat(result.structured().path("output_bytes").asLong()).isEqualTo(6_000_012L);
    String saved =
        Files.readString(Path.of(result.structured().path("output").path("saved_to").asString()));
    assertThat(saved).startsWith("first\naaa").endsWith("aaa\nlast\n").contains("bytes omitted");
    assertThat(saved.length()).isLessThan(4_300_000);
  }

  @Test
  void remoteBash_background_jobKeepsItsOutputAndExitCode() {
    Outcome started =
        call(
            "remote_bash",
            Map.of(
                "device",
                "box1",
                "command",
                "echo working; sleep 1; echo done; exit 7",
                "run_in_background",
                true,
                "description",
                "a short job"));
    String id = started.structured().path("job").path("id").asString();
    assertThat(id).matches("[0-9]{8}-[0-9]{6}-[0-9a-f]{6}");
    assertThat(started.structured().path("exit_code").isNull())
        .as("a job still running has no exit code: %s", started.structured())
        .isTrue();

    Eventually.until(
        "the job to exit",
        AgentServer.LIMIT,
        () ->
            call("remote_job", Map.of("device", "box1", "job_id", id))
                .structured()
                .path("jobs")
                .get(0)
                .path("state")
                .asString()
                .equals("exited"));
    JsonNode job = call("remote_job", Map.of("device", "box1", "job_id", id)).structured();
    Outcome output = call("remote_job", Map.of("device", "box1", "job_id", id, "action", "output"));
    Outcome listed = call("remote_job", Map.of("device", "box1"));

    assertThat(job.path("jobs").get(0).path("exit_code").asInt()).isEqualTo(7);
    assertThat(job.path("jobs").get(0).path("description").asString()).isEqualTo("a short job");
    assertThat(output.structured().path("output").asString()).isEqualTo("working\ndone\n");
    assertThat(listed.structured().path("jobs").findValuesAsString("id")).contains(id);
  }

  @Test
  void remoteJobKill_endsARunningJob() {
    String id =
        call(
                "remote_bash",
                Map.of("device", "box1", "command", "sleep 600", "run_in_background", true))
            .structured()
            .path("job")
            .path("id")
            .asString();

    JsonNode killed = call("remote_job_kill", Map.of("device", "box1", "job_id", id)).structured();

    assertThat(killed.path("jobs").get(0).path("state").asString()).isEqualTo("killed");
    long pid = killed.path("jobs").get(0).path("pid").asLong();
    Eventually.until(
        "the job to end",
        AgentServer.LIMIT,
        () -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
  }

  @Test
  void offlineAndUnknownDevices_failWithTheDevicesOnline() {
    Outcome offline = bash("winbox", "dir");
    Outcome unknown = bash("nobody", "true");

    assertThat(offline.errorCode()).isEqualTo("DEVICE_OFFLINE");
    assertThat(offline.errorMessage())
        .contains("'winbox' is not connected")
        .contains("online now: box1, box2");
    assertThat(unknown.errorCode()).isEqualTo("DEVICE_OFFLINE");
    assertThat(unknown.errorMessage()).contains("No device named 'nobody' is registered");
  }

  @Test
  void badArguments_areRefusedByTheSchemaBeforeAnyDeviceIsAsked() {
    Outcome timeout =
        call("remote_bash", Map.of("device", "box1", "command", "true", "timeout", 601));
    Outcome device = call("remote_bash", Map.of("device", "bad name!", "command", "true"));
    Outcome extra = call("remote_read", Map.of("device", "box1", "file_path", "/x", "lines", 3));

    assertThat(timeout.errorCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(timeout.errorMessage()).contains("timeout");
    assertThat(device.errorCode()).isEqualTo("INVALID_ARGUMENT");
    assertThat(extra.errorMessage()).contains("lines");
  }
}
