package dev.cortex.mcp.tool;

import dev.cortex.base.CodedException;
import dev.cortex.base.CortexHome;
import dev.cortex.base.ErrorCodes;
import dev.cortex.base.Json;
import dev.cortex.mcp.caller.Elicitor;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Runs tools the same way for every caller (MCP over any transport, and {@code cortex tools call}):
 * validate the arguments, call the handler, check the result against the output schema, and turn
 * every failure into a coded error that never leaks internals.
 */
public final class ToolInvoker {
  private static final Logger log = LoggerFactory.getLogger(ToolInvoker.class);

  private final Map<String, Entry> tools = new LinkedHashMap<>();
  private final CortexHome home;
  private final Clock clock;
  private final boolean checkOutputs;
  private final AuditTrail audit;

  /**
   * An invoker that checks results against output schemas when the system property {@code
   * cortex.checkOutputs} is true (as in every test run), and trusts them otherwise.
   */
  public ToolInvoker(Collection<ToolSpec> specs, CortexHome home, Clock clock) {
    this(specs, home, clock, Boolean.getBoolean("cortex.checkOutputs"));
  }

  public ToolInvoker(
      Collection<ToolSpec> specs, CortexHome home, Clock clock, boolean checkOutputs) {
    this(specs, home, clock, checkOutputs, AuditTrail.OFF);
  }

  /**
   * An invoker that records every call in {@code audit}, checking outputs as {@link
   * #ToolInvoker(Collection, CortexHome, Clock)} says.
   */
  public ToolInvoker(Collection<ToolSpec> specs, CortexHome home, Clock clock, AuditTrail audit) {
    this(specs, home, clock, Boolean.getBoolean("cortex.checkOutputs"), audit);
  }

  private ToolInvoker(
      Collection<ToolSpec> specs,
      CortexHome home,
      Clock clock,
      boolean checkOutputs,
      AuditTrail audit) {
    for (ToolSpec spec : specs) {
      if (tools.put(spec.name(), new Entry(spec)) != null) {
        throw new IllegalArgumentException("tool served twice: " + spec.name());
      }
    }
    this.home = Objects.requireNonNull(home, "home");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.checkOutputs = checkOutputs;
    this.audit = java.util.Objects.requireNonNull(audit, "audit");
  }

  /**
   * Compiles every schema and runs the argument-checking path once per tool (with arguments that
   * are refused before any handler runs), and calls the tools that declare warm-up arguments, so
   * that no first call pays for class loading. Safe to call concurrently with real calls. These
   * calls are no one's, and the audit trail leaves them out.
   */
  public void prepare() {
    JsonNode refused = Json.tree(java.util.Map.of("\u0000warm-up", true));
    for (Entry entry : tools.values()) {
      invoke(entry.spec.name(), refused, ToolContext.Caller.of(ToolContext.ProgressSink.NONE))
          .text();
      if (entry.spec.warmUpArguments() != null) {
        invoke(
                entry.spec.name(),
                Json.tree(entry.spec.warmUpArguments()),
                ToolContext.Caller.of(ToolContext.ProgressSink.NONE))
            .text();
      }
      if (checkOutputs) {
        entry.output.problems(refused);
      }
    }
  }

  /** The tools this invoker serves, in registration order. */
  public List<ToolSpec> tools() {
    return tools.values().stream().map(Entry::spec).toList();
  }

  /** Calls a tool by name. {@code arguments} may be null, meaning {@code {}}. */
  public ToolOutcome call(String name, JsonNode arguments, ToolContext.ProgressSink progress) {
    return call(name, arguments, ToolContext.Caller.of(progress));
  }

  /**
   * Calls a tool by name, with a way to ask the human through the client when there is one. {@code
   * arguments} may be null, meaning {@code {}}.
   */
  public ToolOutcome call(
      String name,
      JsonNode arguments,
      ToolContext.ProgressSink progress,
      Optional<Elicitor> elicitor) {
    return call(name, arguments, ToolContext.Caller.of(progress).withElicitor(elicitor));
  }

  /**
   * Calls a tool by name for {@code caller} (its progress sink, elicitation, session and cancel).
   * {@code arguments} may be null, meaning {@code {}}.
   */
  public ToolOutcome call(String name, JsonNode arguments, ToolContext.Caller caller) {
    java.time.Instant at = clock.instant();
    long started = System.nanoTime();
    ToolOutcome outcome = invoke(name, arguments, caller);
    audit.record(
        at,
        caller.session(),
        name,
        arguments,
        outcome instanceof ToolOutcome.Failure failure ? failure.code() : "ok",
        java.time.Duration.ofNanos(System.nanoTime() - started));
    return outcome;
  }

  private ToolOutcome invoke(String name, JsonNode arguments, ToolContext.Caller caller) {
    Entry entry = tools.get(name);
    if (entry == null) {
      return new ToolOutcome.Failure(
          ErrorCodes.UNKNOWN_TOOL,
          "No tool named '"
              + name
              + "' is served here. Available: "
              + String.join(", ", tools.keySet())
              + ".");
    }
    JsonNode args =
        arguments == null || arguments.isNull() ? JsonNodeFactory.instance.objectNode() : arguments;
    if (!args.isObject()) {
      return new ToolOutcome.Failure(
          ErrorCodes.INVALID_ARGUMENT, "The arguments of " + name + " must be a JSON object.");
    }
    List<String> problems = entry.input.problems(args);
    if (!problems.isEmpty()) {
      return new ToolOutcome.Failure(
          ErrorCodes.INVALID_ARGUMENT,
          "Invalid arguments for " + name + ": " + String.join("; ", problems) + ".");
    }
    ToolContext context = new ToolContext(home, clock, caller);
    try {
      Object result = entry.spec.handler().handle(new ToolCall(entry.spec, args, context));
      List<Content> content = List.of();
      if (result instanceof ToolResult rich) {
        result = rich.structured();
        content = rich.content();
      }
      JsonNode body = Json.tree(result);
      List<String> outputProblems = checkOutputs ? entry.output.problems(body) : List.of();
      if (!outputProblems.isEmpty()) {
        log.error("{} returned a result outside its output schema: {}", name, outputProblems);
        return internal(name);
      }
      String text = Json.write(body);
      if (text.length() <= AnswerBound.MAX_CHARS) {
        return new ToolOutcome.Success(body, text, content);
      }
      // Too large to answer: the file has it whole; the caller gets the pointer.
      String spilled = AnswerBound.spill(name, text, home, clock);
      return new ToolOutcome.Success(Json.mapper().readTree(spilled), spilled, content);
    } catch (CodedException e) {
      return new ToolOutcome.Failure(e.code(), e.getMessage());
    } catch (RuntimeException | StackOverflowError e) {
      log.error("{} failed", name, e);
      return internal(name);
    }
  }

  private static ToolOutcome internal(String name) {
    return new ToolOutcome.Failure(
        ErrorCodes.INTERNAL,
        name
            + " failed inside Cortex. The server's log (stderr) has the details; the call can be retried.");
  }

  private static final class Entry {
    final ToolSpec spec;
    final SchemaCheck input;
    final SchemaCheck output;

    Entry(ToolSpec spec) {
      this.spec = spec;
      this.input = new SchemaCheck(spec.inputSchema());
      this.output = new SchemaCheck(spec.outputSchema());
    }

    ToolSpec spec() {
      return spec;
    }
  }
}
