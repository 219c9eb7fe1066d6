package dev.cortex.cli.workflows;

import dev.cortex.base.CodedException;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Services;
import dev.cortex.cli.Terminal;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.Workflows;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.RunStatus;
import dev.cortex.workflows.tools.Surface;
import dev.cortex.workflows.tools.TraceView;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * What the workflow verbs ({@code check}, {@code show}, {@code run}, {@code runs …}, {@code
 * status}, {@code workflows …}) share: their common options as picocli mixins, how they answer
 * (JSON for scripts, text for a person) and how a coded failure reads. Each verb goes through the
 * same {@link Workflows} code as the MCP tools and fails with the same codes and messages.
 */
final class WorkflowVerb {
  private WorkflowVerb() {}

  /**
   * Runs {@code body}, printing a coded failure as the MCP error would read.
   *
   * @return the body's exit code, or 1 when it failed with a coded failure
   */
  static int guarded(Io io, Callable<Integer> body) throws Exception {
    try {
      return body.call();
    } catch (CodedException e) {
      io.err().println("cortex: " + e.code() + ": " + e.getMessage());
      return CortexCommand.FAILED;
    }
  }

  /** What a verb does with this process's {@link Workflows}; returns the exit code. */
  interface Body {
    int run(Workflows workflows) throws Exception;
  }

  /** Runs {@code body} on the workflows of this process, guarded as {@link #guarded} says. */
  static int run(Io io, Body body) throws Exception {
    return guarded(io, () -> body.run(new Services(io).workflows()));
  }

  /** Prints {@code value} as indented JSON. */
  static void print(Io io, Object value) {
    io.out().println(Json.writePretty(value));
  }

  /**
   * Prints how a run ended, its trace (outputs elided unless {@code full}), and returns the exit
   * code: 0 when it succeeded, else 1.
   */
  static int ended(Io io, Answer answer, RunRecord run, boolean full) {
    answer.print(io, TraceView.of(run, full, Surface.CLI), t -> WorkflowText.trace(t, full));
    return run.status() == RunStatus.SUCCEEDED ? CortexCommand.OK : CortexCommand.FAILED;
  }

  /** {@code --json}: the tool's answer as JSON for scripts, else laid out as text for a person. */
  static final class Answer {
    @Option(
        names = "--json",
        description = "Print JSON (the tool's answer) instead of text, for scripts.")
    boolean json;

    /** Prints {@code value} as JSON with {@code --json}, else as {@code text} lays it out. */
    void print(Io io, Object value, Function<JsonNode, String> text) {
      if (json) {
        WorkflowVerb.print(io, value);
      } else {
        io.out().print(text.apply(Json.tree(value)));
        io.out().flush();
      }
    }
  }

  /** The {@code WORKFLOW} a verb is about. */
  static final class Target {
    @Parameters(
        index = "0",
        paramLabel = "WORKFLOW",
        description =
            "A manifest path, a library name or a remote ref (OWNER/REPO@v1, git+URL//PATH@REF).")
    String workflow;
  }

  /** {@code --param NAME=VALUE}, repeatable. */
  static final class Params {
    @Option(
        names = "--param",
        paramLabel = "NAME=VALUE",
        description = "A parameter value (repeatable).")
    List<String> given;

    /**
     * The parameters, strictly typed later by the manifest.
     *
     * @throws ToolException INVALID_ARGUMENT when one is not {@code name=value} or given twice
     */
    Workflows.Params values() {
      Map<String, Object> values = new LinkedHashMap<>();
      for (String pair : given == null ? List.<String>of() : given) {
        int eq = pair.indexOf('=');
        if (eq <= 0) {
          throw ToolException.invalidArgument("--param '" + pair + "': write it as name=value");
        }
        String name = pair.substring(0, eq);
        if (values.containsKey(name)) {
          throw ToolException.invalidArgument("--param " + name + " is given twice");
        }
        values.put(name, pair.substring(eq + 1));
      }
      return new Workflows.Params(values, dev.cortex.workflows.manifest.Parameters.Source.CLI);
    }
  }

  /**
   * {@code --[no-]progress}: steps shown on standard error as they complete, with the end of their
   * output as it comes unless {@code --quiet}.
   */
  static final class Progress {
    @Option(
        names = "--progress",
        negatable = true,
        description = "Show steps as they complete (default: when standard error is a terminal).")
    Boolean progress;

    @Option(
        names = {"-q", "--quiet"},
        description =
            "Do not show a step's output as it comes (shown with the progress otherwise).")
    boolean quiet;

    /** Who hears the run: a line per step on standard error, or nobody. */
    RunListener listener(Io io) {
      boolean live = progress != null ? progress : Terminal.stderrIsTerminal();
      return live ? new LiveProgress(io, !quiet) : RunListener.NONE;
    }
  }
}
