package dev.cortex.e2e.mcp;

import static dev.cortex.testing.TestJson.JSON;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.Listed;
import dev.cortex.testing.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/** The tool contract through {@code cortex tools call} and {@code cortex tools list --json}. */
class CliToolContractIT extends ToolContract {

  @Override
  Outcome call(String tool, Map<String, Object> arguments) throws Exception {
    CortexProcess.Finished run =
        CortexProcess.run(
            CortexProcess.env(home),
            "tools",
            "call",
            "--bundles",
            "core,evidence",
            tool,
            JSON.writeValueAsString(arguments));
    JsonNode body = JSON.readTree(run.stdout());
    boolean isError = body.has("error");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(isError ? 1 : 0);
    if (isError) {
      String code = body.path("error").path("code").asString();
      String message = body.path("error").path("message").asString();
      assertThat(run.stderr()).contains(code + ": " + message);
    }
    return new Outcome(isError, body, JSON.writeValueAsString(body));
  }

  @Override
  List<Listed> list() throws Exception {
    CortexProcess.Finished run =
        CortexProcess.run(
            CortexProcess.env(home), "tools", "list", "--bundles", "core,evidence", "--json");
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    List<Listed> tools = new ArrayList<>();
    for (JsonNode tool : JSON.readTree(run.stdout()).path("tools")) {
      tools.add(
          new Listed(
              tool.path("name").asString(),
              tool.path("annotations"),
              tool.path("input_schema"),
              tool.path("output_schema")));
    }
    return tools;
  }
}
