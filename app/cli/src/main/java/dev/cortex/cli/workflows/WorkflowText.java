package dev.cortex.cli.workflows;

import dev.cortex.base.Json;
import dev.cortex.cli.Table;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * The workflow verbs' answers as a person reads them on a terminal: the same JSON the tools return
 * (and {@code --json} prints), laid out as lines and tables.
 */
final class WorkflowText {
  private WorkflowText() {}

  /** A run's trace: what ran and how it ended, then one line per step. */
  static String trace(JsonNode trace, boolean outputs) {
    StringBuilder text = new StringBuilder();
    String runId = trace.path("run_id").asString();
    text.append("run ")
        .append(runId)
        .append(": ")
        .append(trace.path("workflow").asString())
        .append(' ')
        .append(trace.path("version").asString())
        .append(", ")
        .append(trace.path("status").asString());
    if (!trace.path("duration_ms").isNull() && trace.has("duration_ms")) {
      text.append(" in ").append(millis(trace.path("duration_ms").asLong()));
    }
    text.append('\n');
    field(text, "source", source(trace.path("source")));
    field(text, "parameters", values(trace.path("parameters")));
    field(text, "engine", trace.path("engine").asString());
    cost(trace.path("cost")).ifPresent(c -> field(text, "cost", c));
    JsonNode error = trace.path("error");
    if (error.isObject() && !trace.has("cancelled")) {
      field(
          text,
          "error",
          (error.path("step").isString() ? "step '" + error.path("step").asString() + "' " : "")
              + "("
              + error.path("kind").asString()
              + "): "
              + error.path("message").asString());
    }
    JsonNode cancelled = trace.path("cancelled");
    if (cancelled.isObject()) {
      field(
          text,
          "cancelled",
          "by "
              + cancelled.path("by").asString()
              + " at "
              + cancelled.path("at").asString()
              + (cancelled.path("reason").isString()
                  ? ": " + cancelled.path("reason").asString()
                  : ""));
    }
    text.append("steps (")
        .append(trace.path("steps_completed").asInt())
        .append(" of ")
        .append(trace.path("steps_total").asInt())
        .append(" done):\n");
    int width = 4;
    for (JsonNode step : trace.path("steps")) {
      width = Math.max(width, step.path("id").asString().length());
    }
    boolean elided = false;
    for (JsonNode step : trace.path("steps")) {
      text.append(stepLine(step, width)).append('\n');
      elided |= step.has("output_elided");
      if (outputs && !step.path("output").isNull() && step.has("output")) {
        text.append(indent(output(step.path("output")), "      ")).append('\n');
      }
    }
    if (trace.path("note").isString()) {
      text.append(trace.path("note").asString()).append('\n');
    }
    if (!outputs) {
      text.append("Outputs: cortex runs show ")
          .append(runId)
          .append(" --activity STEP prints one step's")
          .append(elided ? " (some are too large to show inline)" : "")
          .append("; --json prints the whole trace.\n");
    }
    return text.toString();
  }

  /** One step's record with its whole output ({@code runs show RUN --activity STEP}). */
  static String step(JsonNode shown) {
    JsonNode step = shown.path("step");
    StringBuilder text = new StringBuilder();
    text.append("step ")
        .append(step.path("id").asString())
        .append(" (")
        .append(step.path("kind").asString())
        .append(") of run ")
        .append(shown.path("run_id").asString())
        .append(", ")
        .append(shown.path("status").asString())
        .append('\n');
    field(text, "status", step.path("status").asString());
    field(text, "attempts", String.valueOf(step.path("attempts").asInt()));
    if (step.path("duration_ms").isNumber()) {
      field(text, "took", millis(step.path("duration_ms").asLong()));
    }
    if (step.path("model").isString()) {
      field(text, "model", step.path("model").asString());
    }
    cost(step.path("cost")).ifPresent(c -> field(text, "cost", c));
    if (step.path("output_summary").isString()) {
      field(text, "summary", step.path("output_summary").asString());
    }
    if (step.path("error").isObject()) {
      field(
          text,
          "error",
          step.path("error").path("kind").asString()
              + ": "
              + step.path("error").path("message").asString());
    }
    text.append("output:\n");
    text.append(
            step.path("output").isNull() || !step.has("output")
                ? "  (none)"
                : indent(output(step.path("output")), "  "))
        .append('\n');
    return text.toString();
  }

  /** {@code runs list}: a table, newest first. */
  static String runs(JsonNode listed, int limit) {
    JsonNode runs = listed.path("runs");
    if (runs.isEmpty()) {
      return "No runs.\n";
    }
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of("RUN", "WORKFLOW", "VERSION", "STATUS", "STARTED", "TOOK", "STEPS"));
    for (JsonNode run : runs) {
      rows.add(
          List.of(
              run.path("run_id").asString(),
              run.path("workflow").asString(),
              run.path("version").asString(),
              run.path("status").asString(),
              instant(run.path("started_at").asString()),
              run.path("duration_ms").isNumber() ? millis(run.path("duration_ms").asLong()) : "-",
              run.path("steps_completed").asInt() + "/" + run.path("steps_total").asInt()));
    }
    String table = Table.render(rows);
    return runs.size() >= limit
        ? table + "(the newest " + limit + "; --limit shows more)\n"
        : table;
  }

  /** {@code status}: version, home, engine, counts. */
  static String status(JsonNode status) {
    StringBuilder text = new StringBuilder("cortex " + status.path("version").asString() + "\n");
    field(text, "home", status.path("home").asString());
    JsonNode engine = status.path("engine");
    StringBuilder where = new StringBuilder(engine.path("name").asString());
    if (engine.path("address").isString()) {
      where
          .append(" at ")
          .append(engine.path("address").asString())
          .append(" (namespace ")
          .append(engine.path("namespace").asString())
          .append(", task queue ")
          .append(engine.path("task_queue").asString())
          .append(')');
    }
    where.append(engine.path("reachable").asBoolean() ? ", reachable" : ", unreachable");
    if (engine.path("problem").isString()) {
      where.append(": ").append(engine.path("problem").asString());
    }
    field(text, "engine", where.toString());
    JsonNode runs = status.path("runs");
    List<String> counts = new ArrayList<>();
    for (var entry : runs.properties()) {
      if (!entry.getKey().equals("total")) {
        counts.add(entry.getValue().asInt() + " " + entry.getKey());
      }
    }
    field(text, "runs", runs.path("total").asInt() + " in all: " + String.join(", ", counts));
    int library = status.path("library").asInt();
    field(text, "library", library + (library == 1 ? " workflow" : " workflows"));
    List<String> kinds = new ArrayList<>();
    status.path("activity_kinds").forEach(k -> kinds.add(k.asString()));
    field(text, "kinds", String.join(", ", kinds));
    return text.toString();
  }

  /** {@code check}: whether it can run, with what. */
  static String check(JsonNode report) {
    JsonNode workflow = report.path("workflow");
    StringBuilder text =
        new StringBuilder("workflow ")
            .append(workflow.path("name").asString())
            .append(' ')
            .append(workflow.path("version").asString())
            .append(" can run here, on the ")
            .append(report.path("engine").asString())
            .append(" engine.\n");
    field(text, "source", source(report.path("source")));
    field(text, "parameters", values(report.path("parameters")));
    field(text, "capabilities", list(report.path("capabilities")));
    List<String> steps = new ArrayList<>();
    for (JsonNode step : report.path("steps")) {
      steps.add(step.path("id").asString() + " (" + step.path("kind").asString() + ")");
    }
    field(text, "steps", String.join(", ", steps));
    if (report.path("consent_required").asBoolean()) {
      text.append(
          "A run will first ask you to trust this remote workflow at its commit, then to run"
              + " it.\n");
    }
    return text.toString();
  }

  /** {@code show}: what a workflow is, takes and does. */
  static String show(JsonNode shown) {
    JsonNode workflow = shown.path("workflow");
    StringBuilder text =
        new StringBuilder(workflow.path("name").asString())
            .append(' ')
            .append(workflow.path("version").asString());
    if (!workflow.path("description").asString("").isEmpty()) {
      text.append(": ").append(workflow.path("description").asString().strip());
    }
    text.append('\n');
    field(text, "source", source(shown.path("source")));
    field(text, "capabilities", list(shown.path("capabilities")));
    text.append("parameters:");
    if (shown.path("parameters").isEmpty()) {
      text.append(" none");
    }
    text.append('\n');
    for (var parameter : shown.path("parameters").properties()) {
      JsonNode spec = parameter.getValue();
      List<String> facts = new ArrayList<>();
      facts.add(spec.path("type").asString());
      if (spec.path("required").asBoolean()) {
        facts.add("required");
      }
      if (spec.has("default")) {
        facts.add("default " + Json.write(spec.get("default")));
      }
      if (spec.has("min")) {
        facts.add("min " + number(spec.get("min")));
      }
      if (spec.has("max")) {
        facts.add("max " + number(spec.get("max")));
      }
      if (spec.has("values")) {
        facts.add("one of " + list(spec.get("values")));
      }
      text.append("  ")
          .append(parameter.getKey())
          .append(": ")
          .append(String.join(", ", facts))
          .append(
              spec.path("description").isString()
                  ? " - " + spec.path("description").asString()
                  : "")
          .append('\n');
    }
    if (!shown.path("servers").isEmpty()) {
      text.append("servers:\n");
      for (var server : shown.path("servers").properties()) {
        JsonNode spec = server.getValue();
        text.append("  ")
            .append(server.getKey())
            .append(": ")
            .append(
                spec.has("url")
                    ? spec.path("url").asString()
                    : String.join(" ", strings(spec.path("command"))))
            .append('\n');
      }
    }
    text.append("steps:\n");
    int position = 1;
    for (JsonNode step : shown.path("steps")) {
      text.append("  ")
          .append(position++)
          .append(". ")
          .append(step.path("id").asString())
          .append(" (")
          .append(step.path("kind").asString())
          .append(')');
      if (step.path("if").isString()) {
        text.append(", if ").append(step.path("if").asString());
      }
      if (step.path("for_each").isString()) {
        text.append(", for each of ").append(step.path("for_each").asString());
      }
      if (step.path("timeout_ms").isNumber()) {
        text.append(", timeout ").append(millis(step.path("timeout_ms").asLong()));
      }
      if (step.path("retry").isObject()) {
        text.append(", ").append(step.path("retry").path("attempts").asInt()).append(" attempts");
      }
      text.append('\n');
    }
    return text.toString();
  }

  /** A number as written: 1, not 1.0. */
  private static String number(JsonNode value) {
    BigDecimal decimal = value.decimalValue().stripTrailingZeros();
    return decimal.scale() <= 0 ? decimal.toBigInteger().toString() : decimal.toPlainString();
  }

  private static String stepLine(JsonNode step, int width) {
    String status = step.path("status").asString();
    String mark =
        switch (status) {
          case "succeeded" -> "ok";
          case "failed" -> "FAILED";
          default -> status;
        };
    String took =
        step.path("duration_ms").isNumber() ? millis(step.path("duration_ms").asLong()) : "";
    String what =
        step.path("error").isObject()
            ? step.path("error").path("kind").asString()
                + ": "
                + step.path("error").path("message").asString()
            : step.path("output_summary").asString("");
    return String.format(
            Locale.ROOT,
            "  %-9s %-" + width + "s  %-9s %s",
            mark,
            step.path("id").asString(),
            took,
            what)
        .stripTrailing();
  }

  private static String output(JsonNode output) {
    return output.isString() ? output.asString().stripTrailing() : Json.writePretty(output);
  }

  private static String indent(String text, String prefix) {
    return prefix + text.replace("\n", "\n" + prefix);
  }

  private static void field(StringBuilder text, String name, String value) {
    text.append(String.format(Locale.ROOT, "  %-12s %s%n", name, value));
  }

  private static String source(JsonNode source) {
    String kind = source.path("kind").asString();
    String ref = source.path("ref").asString();
    return switch (kind) {
      case "remote" -> ref + " (commit " + source.path("commit").asString() + ")";
      case "library" -> ref + " (local library)";
      default -> source.path("location").asString(ref);
    };
  }

  private static String values(JsonNode parameters) {
    if (parameters.isEmpty()) {
      return "none";
    }
    List<String> pairs = new ArrayList<>();
    for (var entry : parameters.properties()) {
      String value = Json.write(entry.getValue());
      pairs.add(
          entry.getKey() + "=" + (value.length() > 80 ? value.substring(0, 77) + "..." : value));
    }
    return String.join(", ", pairs);
  }

  private static java.util.Optional<String> cost(JsonNode cost) {
    long in = cost.path("input_tokens").asLong();
    long out = cost.path("output_tokens").asLong();
    BigDecimal usd =
        cost.path("usd").isNumber() ? cost.path("usd").decimalValue() : BigDecimal.ZERO;
    if (in == 0 && out == 0 && usd.signum() == 0) {
      return java.util.Optional.empty();
    }
    int unpriced = cost.path("unpriced").asInt();
    return java.util.Optional.of(
        "$"
            + usd.toPlainString()
            + " ("
            + in
            + " tokens in, "
            + out
            + " out"
            + (unpriced > 0 ? "; " + unpriced + " calls of models without a price" : "")
            + ")");
  }

  private static String list(JsonNode array) {
    List<String> items = strings(array);
    return items.isEmpty() ? "none" : String.join(", ", items);
  }

  private static List<String> strings(JsonNode array) {
    List<String> items = new ArrayList<>();
    array.forEach(item -> items.add(item.asString()));
    return items;
  }

  /** An ISO-8601 instant to the second, e.g. 2026-12-01 12:11:27Z. */
  private static String instant(String iso) {
    int dot = iso.indexOf('.');
    String seconds = dot > 0 ? iso.substring(0, dot) + "Z" : iso;
    return seconds.replace('T', ' ');
  }

  private static String millis(long ms) {
    if (ms < 10_000) {
      return ms + " ms";
    }
    if (ms < 600_000) {
      return String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
    }
    return ms / 60_000 + " min " + (ms % 60_000) / 1000 + " s";
  }
}
