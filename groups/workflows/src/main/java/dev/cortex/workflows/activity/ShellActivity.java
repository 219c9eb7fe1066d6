package dev.cortex.workflows.activity;

import dev.cortex.base.Json;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.process.Capture;
import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.process.RunningProcess;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.Step;
import dev.cortex.workflows.manifest.StepKind;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The {@code shell} kind: runs a program (an {@code argv}, no shell involved) or a {@code script}
 * through the system shell, and captures its exit code and output.
 */
public final class ShellActivity implements Activity {
  private static final Path POSIX_SHELL = Path.of("/bin/sh");

  /** Of each stream's 16 MiB kept, the last 1 MiB: where a failing program says why. */
  private static final int TAIL_SHARE = 1024 * 1024;

  private final int captureLimit;

  public ShellActivity() {
    this(CappedBuffer.DEFAULT_LIMIT);
  }

  ShellActivity(int captureLimit) {
    this.captureLimit = captureLimit;
  }

  private int tailBytes() {
    return Math.min(TAIL_SHARE, captureLimit / 4);
  }

  @Override
  public StepKind kind() {
    return StepKind.SHELL;
  }

  @Override
  public String description() {
    return "Runs a program, or a script through the system shell, and captures its exit code,"
        + " standard output and standard error.";
  }

  @Override
  public String outputDescription() {
    return "{exit_code, stdout, stderr}; json when parse_json is true. A stream past 16 MiB keeps"
        + " its first 15 MiB and last 1 MiB with a line [... N bytes omitted ...] between them,"
        + " and stdout_truncated / stderr_truncated is set. An exit code outside ok_exit_codes"
        + " fails the step (kind exit_status) with this output kept. The program runs in a"
        + " process group of its own: whatever it leaves running in the background is ended"
        + " when it exits.";
  }

  @Override
  public Map<String, Object> inputSchema() {
    return Schema.object()
        .optional(
            "argv",
            Schema.array(
                "The program and its arguments, run directly with no shell; a program without a"
                    + " path separator is looked up on PATH. Give exactly one of argv and script.",
                Schema.string(null),
                1,
                0,
                false))
        .optional(
            "script",
            Schema.string(
                "A script run by /bin/sh -c (cmd /c on Windows). Give exactly one of argv and"
                    + " script.",
                1,
                -1))
        .optional(
            "cwd",
            Schema.string(
                "The working directory; a relative path is taken from the directory Cortex runs"
                    + " in, which is also the default."))
        .optional(
            "env",
            OutputText.stringMap(
                "Environment variables for the program, set over those Cortex inherited."))
        .optional(
            "stdin",
            Schema.string(
                "Text written to the program's standard input; without it, standard input is"
                    + " empty."))
        .optional(
            "parse_json",
            Schema.bool(
                "Parse standard output as JSON into the output's json field; output that is not"
                    + " JSON fails the step. Default false."))
        .optional(
            "ok_exit_codes",
            Schema.array(
                "Exit codes that count as success; any other fails the step. Default [0].",
                Schema.integer(null),
                1,
                0,
                true))
        .build();
  }

  @Override
  public List<String> preflight(Step step, Manifest manifest, ActivityEnvironment environment) {
    List<String> problems = new ArrayList<>();
    Map<String, Object> with = step.with();
    commandProblem(with.containsKey("argv"), with.containsKey("script"))
        .ifPresent(p -> problems.add(named(step, p)));
    if (with.get("argv") instanceof List<?> argv
        && !argv.isEmpty()
        && argv.get(0) instanceof String program
        && program.isEmpty()) {
      problems.add(named(step, NO_PROGRAM));
    }
    Optional<Path> cwd = OutputText.literal(with, "cwd").flatMap(ShellActivity::path);
    if (cwd.isPresent() && !Files.isDirectory(cwd.get())) {
      problems.add(named(step, "working directory '" + with.get("cwd") + "' is not a directory"));
    }
    if (with.get("argv") instanceof List<?> argv && !argv.isEmpty()) {
      programProblem(argv.get(0), with, environment).ifPresent(p -> problems.add(named(step, p)));
    } else if (with.containsKey("script") && !ProgramPath.WINDOWS && !Files.exists(POSIX_SHELL)) {
      problems.add(named(step, "scripts need /bin/sh, which does not exist"));
    }
    return problems;
  }

  private static Optional<String> programProblem(
      Object first, Map<String, Object> with, ActivityEnvironment environment) {
    if (!(first instanceof String program) || !OutputText.isLiteral(program)) {
      return Optional.empty();
    }
    if (ProgramPath.isBareName(program)) {
      Map<String, String> variables = new LinkedHashMap<>(environment.variables());
      if (env(with).containsKey("PATH")) {
        Optional<String> path = OutputText.literal(env(with), "PATH");
        if (path.isEmpty()) {
          return Optional.empty();
        }
        variables.put("PATH", path.get());
      }
      Path directory = OutputText.literal(with, "cwd").flatMap(ShellActivity::path).orElse(null);
      return ProgramPath.find(program, variables, directory).isPresent()
          ? Optional.empty()
          : Optional.of("program '" + program + "' is not on PATH");
    }
    Optional<Path> resolved = programFile(program, with);
    if (resolved.isEmpty()) {
      return Optional.empty();
    }
    if (!Files.exists(resolved.get())) {
      return Optional.of("program '" + program + "' does not exist");
    }
    return Files.isRegularFile(resolved.get()) && Files.isExecutable(resolved.get())
        ? Optional.empty()
        : Optional.of("program '" + program + "' is not executable");
  }

  /** Where a program given as a path is, seen from the step's working directory, if known. */
  private static Optional<Path> programFile(String program, Map<String, Object> with) {
    Path given;
    try {
      given = Path.of(program);
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
    if (given.isAbsolute()) {
      return Optional.of(given);
    }
    Optional<Path> base =
        with.containsKey("cwd")
            ? OutputText.literal(with, "cwd").flatMap(ShellActivity::path)
            : path("");
    return base.map(dir -> dir.resolve(given));
  }

  private static Map<?, ?> env(Map<String, Object> with) {
    return with.get("env") instanceof Map<?, ?> env ? env : Map.of();
  }

  private static String named(Step step, String problem) {
    return "step '" + step.id() + "': " + problem;
  }

  @Override
  public ActivityResult run(ActivityInput input) throws ActivityFailure, InterruptedException {
    JsonNode with = input.with();
    Map<String, String> environment = environment(input.environment(), with.path("env"));
    Path cwd = workingDirectory(with.path("cwd"));
    List<String> command = command(with, environment, cwd);
    ProcessSpec.Builder spec =
        ProcessSpec.builder(command, environment)
            .directory(cwd)
            .capture(captureLimit - tailBytes(), tailBytes())
            .followDescendants();
    if (with.path("stdin").isString()) {
      spec.stdin(with.get("stdin").stringValue().getBytes(StandardCharsets.UTF_8));
    }
    ProcessResult outcome = runToEnd(spec.build(), command.get(0), input.processes());
    String stdout = outcome.stdout().text(StandardCharsets.UTF_8);
    String stderr = outcome.stderr().text(StandardCharsets.UTF_8);
    ObjectNode output = output(outcome, stdout, stderr);
    if (!okExitCodes(with.path("ok_exit_codes")).contains(outcome.exitCode())) {
      String detail = OutputText.lastLine(stderr);
      String message = "exit " + outcome.exitCode() + (detail.isEmpty() ? "" : ": " + detail);
      throw new ActivityFailure("exit_status", message, output, true);
    }
    if (with.path("parse_json").asBoolean(false)) {
      output.set("json", json(stdout, outcome.stdout().truncated(), output));
    }
    long lines = stdout.lines().count();
    return ActivityResult.of(
        output, "exit " + outcome.exitCode() + ", " + OutputText.count(lines, "line"));
  }

  /**
   * Starts the program in a group of its own and waits for it; an interrupt (a timeout, a cancel)
   * ends the whole group and is rethrown, as is an end forced by the JVM's exit.
   */
  private static ProcessResult runToEnd(ProcessSpec spec, String program, ProcessObserver observer)
      throws ActivityFailure, InterruptedException {
    RunningProcess process;
    try {
      process = Processes.start(spec, observer.output());
    } catch (IOException e) {
      throw startFailure(program, e);
    }
    observer.started(process);
    try {
      ProcessResult result = process.await();
      if (result.terminated()) {
        throw new InterruptedException("the program was ended from outside the step");
      }
      return result;
    } finally {
      observer.ended(process);
    }
  }

  private static Map<String, String> environment(ActivityEnvironment environment, JsonNode env) {
    Map<String, String> variables = new LinkedHashMap<>(environment.variables());
    for (Map.Entry<String, JsonNode> entry : env.properties()) {
      variables.put(entry.getKey(), entry.getValue().asString());
    }
    return variables;
  }

  private static Path workingDirectory(JsonNode cwd) throws ActivityFailure {
    if (!cwd.isString()) {
      return null;
    }
    Optional<Path> path = path(cwd.stringValue());
    if (path.isEmpty() || !Files.isDirectory(path.get())) {
      throw invalidInput("working directory '" + cwd.stringValue() + "' is not a directory");
    }
    return path.get();
  }

  /** What a step's inputs must say about its program: exactly one of argv and script. */
  private static Optional<String> commandProblem(boolean hasArgv, boolean hasScript) {
    return hasArgv == hasScript
        ? Optional.of("give exactly one of argv and script")
        : Optional.empty();
  }

  private static final String NO_PROGRAM = "argv needs a program";

  private static List<String> command(
      JsonNode with, Map<String, String> environment, Path directory) throws ActivityFailure {
    Optional<String> problem =
        commandProblem(with.path("argv").isArray(), with.path("script").isString());
    if (problem.isPresent()) {
      throw invalidInput(problem.get());
    }
    boolean hasScript = with.path("script").isString();
    if (hasScript) {
      String script = with.get("script").stringValue();
      return ProgramPath.WINDOWS
          ? List.of("cmd", "/c", script)
          : List.of(POSIX_SHELL.toString(), "-c", script);
    }
    List<String> argv = new ArrayList<>();
    with.get("argv").forEach(arg -> argv.add(arg.asString()));
    if (argv.isEmpty() || argv.get(0).isEmpty()) {
      throw invalidInput(NO_PROGRAM);
    }
    String program = argv.get(0);
    if (ProgramPath.isBareName(program)) {
      Path found =
          ProgramPath.find(program, environment, directory)
              .orElseThrow(() -> notFound("program '" + program + "' is not on PATH"));
      argv.set(0, found.toString());
    }
    return argv;
  }

  private static ObjectNode output(ProcessResult outcome, String stdout, String stderr) {
    ObjectNode output = Json.mapper().createObjectNode();
    output.put("exit_code", outcome.exitCode());
    output.put("stdout", stdout);
    output.put("stderr", stderr);
    truncated(output, "stdout", outcome.stdout());
    truncated(output, "stderr", outcome.stderr());
    return output;
  }

  private static void truncated(ObjectNode output, String stream, Capture capture) {
    if (capture.truncated()) {
      output.put(stream + "_truncated", true);
    }
  }

  private static Set<Integer> okExitCodes(JsonNode codes) {
    if (!codes.isArray() || codes.isEmpty()) {
      return Set.of(0);
    }
    Set<Integer> ok = new HashSet<>();
    codes.forEach(code -> ok.add(code.asInt()));
    return ok;
  }

  private JsonNode json(String stdout, boolean truncated, ObjectNode output)
      throws ActivityFailure {
    if (truncated) {
      throw new ActivityFailure(
          "invalid_output",
          "stdout is too large to parse as JSON (over " + OutputText.size(captureLimit) + ")",
          output,
          false);
    }
    try {
      return OutputText.parseJson(stdout);
    } catch (IllegalArgumentException e) {
      throw new ActivityFailure(
          "invalid_output", "stdout is not JSON: " + e.getMessage(), output, false);
    }
  }

  private static ActivityFailure startFailure(String program, IOException e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    if (message.contains("error=2,") || message.contains("No such file")) {
      return notFound("program '" + program + "' does not exist");
    }
    String reason = message.replaceFirst("^.*error=\\d+, ", "");
    return new ActivityFailure(
        "not_found",
        "program '" + program + "' could not be started: " + OutputText.firstLine(reason),
        null,
        false);
  }

  private static Optional<Path> path(String text) {
    try {
      return Optional.of(Path.of(text).toAbsolutePath());
    } catch (InvalidPathException e) {
      return Optional.empty();
    }
  }

  private static ActivityFailure notFound(String message) {
    return new ActivityFailure("not_found", message, null, false);
  }

  private static ActivityFailure invalidInput(String message) {
    return new ActivityFailure("invalid_input", message, null, false);
  }
}
