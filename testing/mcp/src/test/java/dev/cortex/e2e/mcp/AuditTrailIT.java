package dev.cortex.e2e.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexHttp;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.JsonRpcLines;
import dev.cortex.testing.RawStdio;
import dev.cortex.testing.TestJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The audit trail: one line per tool call, from every way of calling a tool (MCP on stdio and HTTP,
 * {@code cortex tools call}), with argument names and sizes but no values, rotated at its size cap,
 * and configurable in cortex.toml and the environment.
 */
class AuditTrailIT {
  static final String SECRET = "sk-live-4f9a1c2e8b7d6a5f0e3c";

  @TempDir Path home;

  Path trail() {
    return home.resolve("logs").resolve("audit.jsonl");
  }

  List<JsonNode> lines(Path file) throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      lines.add(TestJson.JSON.readTree(line));
    }
    return lines;
  }

  @Test
  void everyTransport_recordsEachCall_withArgumentSizesButNoValues() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    String claim =
        "{\"project_id\":\"audit\",\"statement\":\"The deploy key "
            + SECRET
            + " works.\",\"criteria\":[{\"key\":\"k\",\"description\":\"it works\"}]}";
    try (RawStdio stdio = RawStdio.start(env, "mcp", "--bundles", "core,evidence")) {
      stdio.initialize("{}");
      stdio.call(2, "cortex_create_claim", claim, new ArrayList<>());
      stdio.call(3, "current_time", "{\"timezone\":\"Mars/Base\"}", new ArrayList<>());
    }
    try (CortexHttp http = CortexHttp.start(env, "--bundles", "core")) {
      String session = http.session();
      http.post(JsonRpcLines.toolsCall(2, "current_time", "{}"), "Mcp-Session-Id", session);
    }
    CortexProcess.Finished cli =
        CortexProcess.run(env, "tools", "call", "--bundles", "core", "current_time", "{}");
    assertThat(cli.exitCode()).as(cli.stderr()).isZero();

    List<JsonNode> lines = lines(trail());
    assertThat(lines)
        .extracting(l -> l.path("tool").asString())
        .containsExactly("cortex_create_claim", "current_time", "current_time", "current_time");
    assertThat(lines)
        .extracting(l -> l.path("outcome").asString())
        .containsExactly("ok", "INVALID_ARGUMENT", "ok", "ok");
    JsonNode first = lines.get(0);
    assertThat(first.path("arguments").path("statement").asInt())
        .isEqualTo(TestJson.JSON.readTree(claim).path("statement").toString().length());
    assertThat(first.path("arguments").path("project_id").asInt()).isEqualTo("\"audit\"".length());
    assertThat(first.path("at").asString()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    assertThat(first.path("duration_ms").isIntegralNumber()).isTrue();
    assertThat(first.has("session")).isTrue();
    assertThat(Files.readString(trail())).doesNotContain(SECRET).doesNotContain("deploy key");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(trail())))
        .isEqualTo("rw-------");
  }

  @Test
  void pastItsSizeCap_theTrailRotates_keepingTheGenerationsAsked() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    env.put("CORTEX_AUDIT_MAX_BYTES", "1024");
    env.put("CORTEX_AUDIT_GENERATIONS", "2");
    try (RawStdio stdio = RawStdio.start(env, "mcp", "--bundles", "core")) {
      stdio.initialize("{}");
      for (int id = 2; id < 40; id++) {
        stdio.call(id, "current_time", "{\"timezone\":\"Europe/Berlin\"}", new ArrayList<>());
      }
    }
    Path one = trail().resolveSibling("audit.jsonl.1");
    Path two = trail().resolveSibling("audit.jsonl.2");
    assertThat(trail()).exists();
    assertThat(one).exists();
    assertThat(two).exists();
    assertThat(trail().resolveSibling("audit.jsonl.3")).doesNotExist();
    for (Path file : List.of(trail(), one, two)) {
      assertThat(Files.size(file)).as(file.toString()).isLessThanOrEqualTo(1024);
      assertThat(lines(file)).allMatch(l -> l.path("tool").asString().equals("current_time"));
    }
  }

  @Test
  void values_whenAsked_areRecorded_withSecretsTakenOut() throws Exception {
    Files.createDirectories(home.resolve("config"));
    Files.writeString(home.resolve("config").resolve("cortex.toml"), "[audit]\nvalues = true\n");
    CortexProcess.Finished run =
        CortexProcess.run(
            CortexProcess.env(home),
            "tools",
            "call",
            "--bundles",
            "core",
            "current_time",
            "{\"timezone\":\"UTC\",\"api_token\":\"" + SECRET + "\"}");

    assertThat(run.exitCode()).isEqualTo(CortexProcess.FAILED);
    JsonNode line = lines(trail()).get(0);
    assertThat(line.path("arguments").path("timezone").asString()).isEqualTo("UTC");
    assertThat(line.path("arguments").path("api_token").asString()).isEqualTo("[redacted]");
    assertThat(Files.readString(trail())).doesNotContain(SECRET);
  }

  @Test
  void turnedOff_byTheEnvironmentOrCortexToml_writesNothing() throws Exception {
    Map<String, String> env = CortexProcess.env(home);
    env.put("CORTEX_AUDIT", "0");
    CortexProcess.run(env, "tools", "call", "--bundles", "core", "current_time", "{}");
    assertThat(trail()).doesNotExist();

    Files.createDirectories(home.resolve("config"));
    Files.writeString(home.resolve("config").resolve("cortex.toml"), "[audit]\nenabled = false\n");
    CortexProcess.run(
        CortexProcess.env(home), "tools", "call", "--bundles", "core", "current_time", "{}");
    assertThat(trail()).doesNotExist();

    Files.writeString(home.resolve("config").resolve("cortex.toml"), "[audit]\nmax_bytes = 5\n");
    CortexProcess.Finished bad =
        CortexProcess.run(
            CortexProcess.env(home), "tools", "call", "--bundles", "core", "current_time", "{}");
    assertThat(bad.exitCode()).isEqualTo(CortexProcess.USAGE);
    assertThat(bad.stderr()).contains("max_bytes").doesNotContain("Exception");
  }
}
