package dev.cortex.cli.workflows;

import dev.cortex.base.CodedException;
import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Services;
import dev.cortex.cli.Terminal;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.Sources;
import dev.cortex.workflows.Workflows;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestException;
import dev.cortex.workflows.manifest.ManifestLoader;
import dev.cortex.workflows.run.RunHandle;
import dev.cortex.workflows.run.RunListener;
import dev.cortex.workflows.run.RunRecord;
import dev.cortex.workflows.run.RunStatus;
import dev.cortex.workflows.run.StepRecord;
import dev.cortex.workflows.tools.Surface;
import dev.cortex.workflows.tools.TraceView;
import dev.cortex.workflows.tools.WorkflowErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.databind.JsonNode;

/**
 * The workflow verbs of the command line: {@code check}, {@code show}, {@code run}, {@code runs
 * list|show|resume}, {@code status} and {@code workflows save|list}. Each goes through the same
 * {@link Workflows} code as the MCP tools and fails with the same codes and messages.
 */
public final class WorkflowCommands {
  private WorkflowCommands() {}

  /** Runs {@code body}, printing a coded failure as the MCP error would read. */
  private static int guarded(Io io, Callable<Integer> body) throws Exception {
    try {
      return body.call();
    } catch (CodedException e) {
      io.err().println("cortex: " + e.code() + ": " + e.getMessage());
      return CortexCommand.FAILED;
    }
  }

  private static void print(Io io, Object value) {
    io.out().println(Json.writePretty(value));
  }

  /** Prints {@code value} as JSON for scripts, else as {@code text} lays it out for a person. */
  private static void answer(
      Io io, boolean json, Object value, java.util.function.Function<JsonNode, String> text) {
    if (json) {
      print(io, value);
    } else {
      io.out().print(text.apply(Json.tree(value)));
      io.out().flush();
    }
  }

  /** The option every verb that answers with data has. */
  static final String JSON_HELP = "Print JSON (the tool's answer) instead of text, for scripts.";

  /** The parameters given as {@code --param name=value}, strictly typed by the manifest. */
  static Workflows.Params params(List<String> given) {
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

  @Command(
      name = "check",
      mixinStandardHelpOptions = true,
      description = "Preflight a workflow: validate it and its parameters, run nothing.")
  public static final class Check implements Callable<Integer> {
    private final Io io;

    @Parameters(
        index = "0",
        paramLabel = "WORKFLOW",
        description =
            "A manifest path, a library name or a remote ref (OWNER/REPO@v1, git+URL//PATH@REF).")
    String workflow;

    @Option(
        names = "--param",
        paramLabel = "NAME=VALUE",
        description = "A parameter value (repeatable).")
    List<String> params;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    public Check(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return guarded(
          io,
          () -> {
            Workflows workflows = new Services(io).workflows();
            answer(
                io,
                json,
                workflows.checkReport(workflows.prepare(workflow, params(params))),
                WorkflowText::check);
            return CortexCommand.OK;
          });
    }
  }

  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Describe a workflow: parameters, capabilities, servers and steps.")
  public static final class Show implements Callable<Integer> {
    private final Io io;

    @Parameters(
        index = "0",
        paramLabel = "WORKFLOW",
        description =
            "A manifest path, a library name or a remote ref (OWNER/REPO@v1, git+URL//PATH@REF).")
    String workflow;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    public Show(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return guarded(
          io,
          () -> {
            answer(io, json, new Services(io).workflows().show(workflow), WorkflowText::show);
            return CortexCommand.OK;
          });
    }
  }

  @Command(
      name = "run",
      mixinStandardHelpOptions = true,
      description = {
        "Run a workflow and print how it went: each step's outcome (--json: the trace, outputs"
            + " over ~2 KB elided unless --full).",
        "Asks y/N on the terminal first (and, for a remote workflow not yet trusted at its"
            + " commit, whether to trust it); without a terminal it needs --yes or"
            + " CORTEX_ASSUME_YES=1. On a terminal, each step is shown as it completes. Ctrl-C"
            + " stops the run (it ends cancelled). Exits 1 when the run fails, is cancelled or"
            + " is not confirmed."
      })
  public static final class Run implements Callable<Integer> {
    private final Io io;

    @Parameters(
        index = "0",
        paramLabel = "WORKFLOW",
        description =
            "A manifest path, a library name or a remote ref (OWNER/REPO@v1, git+URL//PATH@REF).")
    String workflow;

    @Option(
        names = "--param",
        paramLabel = "NAME=VALUE",
        description = "A parameter value (repeatable).")
    List<String> params;

    @Option(
        names = "--detach",
        description =
            "Print the run id and return; the run goes on in the background of this process until it ends.")
    boolean detach;

    @Option(names = "--full", description = "Print every output inline.")
    boolean full;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    @Option(
        names = {"-y", "--yes"},
        description =
            "Confirm the run (and trust in a remote workflow at its commit) without asking, as"
                + " CORTEX_ASSUME_YES=1 does.")
    boolean yes;

    @Option(
        names = "--progress",
        negatable = true,
        description = "Show steps as they complete (default: when standard error is a terminal).")
    Boolean progress;

    public Run(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return guarded(
          io,
          () -> {
            Services services = new Services(io);
            Workflows workflows = services.workflows();
            Workflows.Prepared prepared = workflows.prepare(workflow, params(params));
            workflows.confirm(
                prepared, new CliConsent(io, yes, Terminal.stdinIsTerminal()), Surface.CLI);
            boolean live = progress != null ? progress : Terminal.stderrIsTerminal();
            RunHandle handle =
                workflows.start(prepared, live ? new LiveProgress(io) : RunListener.NONE);
            java.util.function.Consumer<RunRecord> awaited = run -> {};
            if (!detach || workflows.engine().busy()) {
              // This process waits for the run: Ctrl-C stops it rather than leaving it behind.
              awaited = StopOnInterrupt.install(io, handle);
            }
            if (detach) {
              io.out().println(handle.runId());
              io.err()
                  .println(
                      "cortex: run "
                          + handle.runId()
                          + (workflows.engine().busy()
                              ? " started; this process stays until it ends."
                              : " started on " + workflows.engine().name() + ".")
                          + " Follow it with: cortex runs show "
                          + handle.runId());
              services.awaitRuns();
              return CortexCommand.OK;
            }
            RunRecord run = handle.await();
            awaited.accept(run);
            trace(io, json, run, full);
            return run.status() == RunStatus.SUCCEEDED ? CortexCommand.OK : CortexCommand.FAILED;
          });
    }
  }

  private static void trace(Io io, boolean json, RunRecord run, boolean full) {
    answer(io, json, TraceView.of(run, full, Surface.CLI), t -> WorkflowText.trace(t, full));
  }

  /** Steps as they complete, one line each, on standard error. */
  static final class LiveProgress implements RunListener {
    private final Io io;

    LiveProgress(Io io) {
      this.io = io;
    }

    @Override
    public void planned(RunRecord run) {
      io.err()
          .println(
              "run "
                  + run.runId()
                  + ": "
                  + run.workflow()
                  + " "
                  + run.version()
                  + ", "
                  + run.stepsTotal()
                  + (run.stepsTotal() == 1 ? " step" : " steps"));
    }

    @Override
    public void stepEnded(RunRecord run, int position) {
      StepRecord step = run.steps().get(position);
      String mark =
          switch (step.status()) {
            case SUCCEEDED -> "ok  ";
            case SKIPPED -> "skip";
            default -> "FAIL";
          };
      io.err()
          .printf(
              "  %s %d/%d %-24s %6d ms  %s%n",
              mark,
              position + 1,
              run.stepsTotal(),
              step.id(),
              step.durationMs(),
              step.error() == null ? step.outputSummary() : step.error().message());
    }

    @Override
    public void ended(RunRecord run) {
      io.err()
          .println(
              "run " + run.runId() + " " + run.status().wire() + " in " + run.durationMs() + " ms");
    }
  }

  @Command(
      name = "runs",
      mixinStandardHelpOptions = true,
      description = "Inspect, cancel and resume workflow runs.")
  public static final class Runs implements Callable<Integer> {
    private final Io io;

    public Runs(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      io.err().println("cortex runs: say 'list', 'show RUN', 'cancel RUN' or 'resume RUN'.");
      return CortexCommand.USAGE;
    }
  }

  @Command(name = "list", mixinStandardHelpOptions = true, description = "List runs, newest first.")
  public static final class RunsList implements Callable<Integer> {
    private final Io io;

    @Option(names = "--workflow", description = "Only runs of this workflow name.")
    String workflow;

    @Option(
        names = "--status",
        description =
            "Only runs in this status: running, succeeded, failed, interrupted, cancelled.")
    String status;

    @Option(names = "--since", description = "Only runs started at or after this ISO-8601 instant.")
    String since;

    @Option(
        names = "--limit",
        description = "How many runs at most (1-200, default 20).",
        defaultValue = "20")
    int limit;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    public RunsList(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return guarded(
          io,
          () -> {
            if (limit < 1 || limit > 200) {
              throw ToolException.invalidArgument("--limit must be between 1 and 200");
            }
            answer(
                io,
                json,
                new Services(io).workflows().list(workflow, status, since, limit),
                listed -> WorkflowText.runs(listed, limit));
            return CortexCommand.OK;
          });
    }
  }

  @Command(name = "show", mixinStandardHelpOptions = true, description = "Show a run's trace.")
  public static final class RunsShow implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "RUN", description = "The run id.")
    String runId;

    @Option(names = "--activity", paramLabel = "STEP", description = "Show one step's full record.")
    String activity;

    @Option(names = "--full", description = "Show every output inline.")
    boolean full;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    public RunsShow(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return guarded(
          io,
          () -> {
            JsonNode shown =
                new Services(io).workflows().showRun(runId, activity, full, Surface.CLI);
            answer(
                io,
                json,
                shown,
                t -> activity != null ? WorkflowText.step(t) : WorkflowText.trace(t, full));
            return CortexCommand.OK;
          });
    }
  }

  @Command(
      name = "cancel",
      mixinStandardHelpOptions = true,
      description = {
        "Stop a running (or interrupted) run: its running step's processes are ended, no later"
            + " step starts, and the run ends cancelled with who stopped it and when in its trace.",
        "Prints the trace; exits 0 once the run is cancelled, 1 when it already ended."
      })
  public static final class RunsCancel implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "RUN", description = "The run id.")
    String runId;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, kept in the trace.")
    String reason;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    public RunsCancel(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return guarded(
          io,
          () -> {
            JsonNode trace =
                new Services(io)
                    .workflows()
                    .cancel(runId, CANCELLED_BY_PERSON, reason, Surface.CLI);
            answer(io, json, trace, t -> WorkflowText.trace(t, false));
            return trace.path("status").asString("").equals("cancelled")
                ? CortexCommand.OK
                : CortexCommand.FAILED;
          });
    }
  }

  /** Who stops a run through {@code cortex runs cancel}. */
  static final String CANCELLED_BY_PERSON =
      "person through cortex runs cancel (user " + System.getProperty("user.name", "?") + ")";

  @Command(
      name = "resume",
      mixinStandardHelpOptions = true,
      description = "Resume an interrupted or failed run from its first unfinished step.")
  public static final class RunsResume implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "RUN", description = "The run id.")
    String runId;

    @Option(names = "--full", description = "Print every output inline.")
    boolean full;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    @Option(
        names = "--progress",
        negatable = true,
        description = "Show steps as they complete (default: when standard error is a terminal).")
    Boolean progress;

    public RunsResume(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return guarded(
          io,
          () -> {
            boolean live = progress != null ? progress : Terminal.stderrIsTerminal();
            RunRecord run =
                new Services(io)
                    .workflows()
                    .resume(runId, live ? new LiveProgress(io) : RunListener.NONE)
                    .await();
            trace(io, json, run, full);
            return run.status() == RunStatus.SUCCEEDED ? CortexCommand.OK : CortexCommand.FAILED;
          });
    }
  }

  @Command(
      name = "status",
      mixinStandardHelpOptions = true,
      description = "Version, home, engine and run counts.")
  public static final class Status implements Callable<Integer> {
    private final Io io;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    public Status(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return guarded(
          io,
          () -> {
            answer(io, json, new Services(io).workflows().status(), WorkflowText::status);
            return CortexCommand.OK;
          });
    }
  }

  @Command(
      name = "workflows",
      mixinStandardHelpOptions = true,
      description = "The local workflow library (human-only: no MCP tool saves workflows).")
  public static final class Library implements Callable<Integer> {
    private final Io io;

    public Library(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      io.err().println("cortex workflows: say 'save FILE' or 'list'.");
      return CortexCommand.USAGE;
    }
  }

  @Command(
      name = "save",
      mixinStandardHelpOptions = true,
      description = "Validate a manifest and save it to the local library under its name.")
  public static final class Save implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "FILE", description = "The manifest to save.")
    Path file;

    @Option(names = "--force", description = "Replace a saved workflow of the same name.")
    boolean force;

    public Save(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return guarded(
          io,
          () -> {
            String text;
            try {
              text = Files.readString(file, StandardCharsets.UTF_8);
            } catch (IOException e) {
              throw ToolException.invalidReference("cannot read " + file);
            }
            Manifest manifest;
            try {
              manifest = ManifestLoader.parse(file.toString(), text);
            } catch (ManifestException e) {
              throw new ToolException(
                  WorkflowErrors.INVALID_MANIFEST, file + " has problems:\n" + e.getMessage());
            }
            if (!Sources.LIBRARY_NAME.matcher(manifest.name()).matches()) {
              throw ToolException.invalidArgument(
                  "the workflow's name '"
                      + manifest.name()
                      + "' cannot name a library file: use letters, digits, '.', '_' and '-'");
            }
            CortexHome home = io.home();
            Path target = new Sources(home, Path.of("")).libraryFile(manifest.name());
            if (Files.exists(target)
                && !force
                && !Files.readString(target, StandardCharsets.UTF_8).equals(text)) {
              throw ToolException.invalidArgument(
                  "a different workflow '"
                      + manifest.name()
                      + "' is already saved; use --force to replace it");
            }
            CortexHome.writeAtomically(target, text);
            io.out()
                .println("saved " + manifest.name() + " " + manifest.version() + " to the library");
            return CortexCommand.OK;
          });
    }
  }

  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the workflows saved in the local library.")
  public static final class LibraryList implements Callable<Integer> {
    private final Io io;

    @Option(names = "--json", description = JSON_HELP)
    boolean json;

    public LibraryList(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() throws Exception {
      return guarded(
          io,
          () -> {
            Workflows workflows = new Services(io).workflows();
            List<Map<String, Object>> rows = new ArrayList<>();
            Sources sources = new Sources(io.home(), Path.of(""));
            for (String name : sources.names()) {
              Map<String, Object> row = new LinkedHashMap<>();
              row.put("name", name);
              try {
                Map<String, Object> shown = workflows.show(name);
                row.putAll(Json.mapper().convertValue(shown.get("workflow"), Map.class));
                row.put("name", name);
              } catch (ToolException e) {
                row.put("problem", e.getMessage().lines().findFirst().orElse(""));
              }
              rows.add(row);
            }
            if (json) {
              print(io, Map.of("workflows", rows));
            } else if (rows.isEmpty()) {
              io.out()
                  .println(
                      "The library is empty. Save a manifest with: cortex workflows save FILE");
            } else {
              for (Map<String, Object> row : rows) {
                io.out()
                    .printf(
                        "%-32s %-10s %s%n",
                        row.get("name"),
                        row.getOrDefault("version", "?"),
                        row.getOrDefault("description", row.getOrDefault("problem", "")));
              }
            }
            return CortexCommand.OK;
          });
    }
  }
}
