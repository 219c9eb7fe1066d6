package dev.cortex.evidence;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;

/** {@code cortex_health}: answers that the server is up, without opening any database. */
final class Health {
  static final String NAME = "cortex_health";

  private Health() {}

  /** Result of {@code cortex_health}. */
  record Result(String status, String service, String version) {}

  static ToolSpec spec(String version) {
    Result ok = new Result("ok", "cortex", version);
    return ToolSpec.builder(NAME, call -> ok)
        .title("Health check")
        .description(
            "Checks that the Cortex server is responding. Call it with {}. It answers without opening"
                + " the ledger's database, so it works even before any project exists. Use it as a"
                + " liveness probe only; whether workflows can run here (their engine, run counts) is"
                + " the workflows group's status.")
        .input(Schema.object().build())
        .output(
            Schema.object()
                .required("status", Schema.enumOf("Always 'ok' when the server answers.", "ok"))
                .required("service", Schema.string("The name of the server."))
                .required("version", Schema.string("The Cortex version."))
                .build())
        .hints(new ToolHints(true, false, true, false))
        .warmUpWith(java.util.Map.of())
        .build();
  }
}
