package dev.cortex.ext;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code query_executions}: the execution registry, by id or filtered by status and project. */
final class QueryExecutions {
  static final String NAME = "query_executions";
  static final int MAX_LIMIT = 100;

  private final Executions executions;

  QueryExecutions(Executions executions) {
    this.executions = executions;
  }

  record Arguments(
      @JsonProperty("execution_id") String executionId,
      @JsonProperty("status") String status,
      @JsonProperty("project") String project,
      @JsonProperty("limit") Integer limit) {}

  record View(
      String id,
      String kind,
      String status,
      String channel,
      String project,
      String sessionId,
      String backend,
      String model,
      String startedAt,
      String endedAt,
      double costUsd,
      int turns,
      String output,
      String error) {}

  record Result(int count, List<View> executions) {}

  static Map<String, Object> viewSchema() {
    Map<String, Object> text = Schema.nullable(Schema.string("Absent when not known."));
    return Schema.object()
        .required("id", Schema.string("The execution's id, e.g. ex-20261201T101500Z-3fa2c1d0."))
        .required("kind", Schema.string("turn (later: subagent, worker, schedule, callback)."))
        .required(
            "status",
            Schema.enumOf(
                "Where it stands.", "running", "completed", "failed", "cancelled", "stale"))
        .required("channel", text)
        .required("project", text)
        .required("session_id", text)
        .required("backend", text)
        .required("model", text)
        .required("started_at", Schema.instant("When it started."))
        .required("ended_at", Schema.nullable(Schema.instant("When it ended.")))
        .required("cost_usd", Schema.number("What it cost in US dollars."))
        .required("turns", Schema.integer("Backend turns it took."))
        .required("output", Schema.nullable(Schema.string("Its final output, once completed.")))
        .required(
            "error", Schema.nullable(Schema.string("What went wrong, when it did not complete.")))
        .build();
  }

  ToolSpec spec() {
    return ToolSpec.builder(NAME, this::handle)
        .title("Query execution records")
        .description(
            "Looks up execution records of the agent server — every session turn (later also"
                + " subagents, workers, scheduled and callback runs) with its status, times, cost and"
                + " output or error — newest first. Give execution_id for one record, or filter by"
                + " status (running, completed, failed, cancelled, stale, or all; default all) and"
                + " project; limit 1-100 (default 20). A record whose process died before it ended"
                + " shows as stale. Read-only.")
        .input(
            Schema.object()
                .optional(
                    "execution_id",
                    Schema.string(
                        "The id of one execution record, as a listing of query_executions gives it.",
                        1,
                        128))
                .optional(
                    "status",
                    Schema.enumOf(
                        "Only records in this status (all: every status).",
                        "running",
                        "completed",
                        "failed",
                        "cancelled",
                        "stale",
                        "all"))
                .optional("project", Schema.string("Only records of this project.", 1, 128))
                .optional(
                    "limit",
                    Schema.withDefault(
                        Schema.integer("How many records at most.", 1, MAX_LIMIT), 20))
                .build())
        .output(
            Schema.object()
                .required("count", Schema.integer("How many records came back."))
                .required(
                    "executions",
                    Schema.array("The records, newest first.", viewSchema(), 0, 0, false))
                .build())
        .hints(ToolHints.readOnlyLocal())
        .blocking()
        .build();
  }

  private Result handle(ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    Execution.Status status =
        args.status() == null || args.status().equals("all")
            ? null
            : Execution.Status.valueOf(args.status().toUpperCase(Locale.ROOT));
    List<Execution> found =
        executions.query(
            new Executions.Query(
                args.executionId(),
                status,
                args.project(),
                args.limit() == null ? 20 : args.limit()));
    if (args.executionId() != null && found.isEmpty()) {
      throw ToolException.invalidReference("No execution '" + args.executionId() + "'.");
    }
    List<View> views =
        found.stream()
            .map(
                e ->
                    new View(
                        e.id(),
                        e.kind(),
                        e.status().wire(),
                        e.channel(),
                        e.project(),
                        e.sessionId(),
                        e.backend(),
                        e.model(),
                        e.startedAt().toString(),
                        e.endedAt() == null ? null : e.endedAt().toString(),
                        e.costUsd(),
                        e.turns(),
                        e.output(),
                        e.error()))
            .toList();
    return new Result(views.size(), views);
  }
}
