package dev.cortex.evidence;

import dev.cortex.base.Json;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.process.RunningProcess;
import dev.cortex.process.StandardStream;
import dev.cortex.storage.Database;
import dev.cortex.storage.Sql;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Runs 1 to 8 tracked test files of a clean Git checkout and records a receipt of the observed exit
 * code against a claim's criterion. The working tree must be clean and HEAD the same before and
 * after; a launch error or a run past the time limit records nothing.
 */
public final class TestCollector {
  /** The time limit of the shipped program. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(2);

  static final int MAX_FILES = 8;

  private final Supplier<Database> database;
  private final Clock clock;
  private final Duration timeout;
  private final OutputStream testOutput;

  public TestCollector(
      Supplier<Database> database, Clock clock, Duration timeout, OutputStream testOutput) {
    this.database = Objects.requireNonNull(database);
    this.clock = Objects.requireNonNull(clock);
    this.timeout = Objects.requireNonNull(timeout);
    this.testOutput = Objects.requireNonNull(testOutput);
  }

  /**
   * What to run.
   *
   * @param runner a command to run the files with, or null to choose by file type
   * @param workingDirectory a directory inside the Git checkout
   */
  public record Request(
      String projectId,
      String claimId,
      String criterionId,
      String runner,
      List<String> files,
      Path workingDirectory) {}

  /** The receipt saved for a run, as printed and as recovered through cortex_get_context. */
  public record Receipt(
      String runId,
      String projectId,
      String claimId,
      String criterionId,
      String gitRevision,
      String runner,
      String runnerVersion,
      List<String> files,
      int exitCode,
      String startedAt,
      String finishedAt) {}

  /** Why nothing was recorded. */
  public static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message, null, false, false);
    }
  }

  /** Runs the tests and saves the receipt, or refuses with a reason and saves nothing. */
  public Receipt collect(Request request) throws Refused {
    List<String> files = checkFiles(request.files());
    Git git = Git.at(request.workingDirectory());
    for (String file : files) {
      git.requireTracked(file);
    }
    git.requireClean();
    String head = git.head();
    requireClaim(request);
    TestRunner runner;
    try {
      runner =
          request.runner() == null
              ? TestRunner.byFileType(git.root(), files)
              : TestRunner.custom(request.runner(), git.root(), files);
    } catch (TestRunner.NoRunner e) {
      throw new Refused(e.getMessage());
    }
    String version = version(runner);
    Instant started = clock.instant();
    Ran ran = run(runner);
    int exit = ran.exitCode();
    Instant finished = ran.finishedAt();
    if (exit == 126 || exit == 127) {
      throw new Refused(
          "The test runner '"
              + runner.name()
              + "' could not be started (exit "
              + exit
              + ": not found or not executable); no receipt was recorded.");
    }
    if (!git.head().equals(head)) {
      throw new Refused("HEAD moved while the tests ran; no receipt was recorded.");
    }
    git.requireClean();
    Receipt receipt =
        new Receipt(
            UUID.randomUUID().toString(),
            request.projectId(),
            request.claimId(),
            request.criterionId(),
            head,
            runner.name(),
            version,
            files,
            exit,
            Sql.stamp(started),
            Sql.stamp(finished));
    save(receipt);
    return receipt;
  }

  private static List<String> checkFiles(List<String> files) throws Refused {
    if (files.isEmpty() || files.size() > MAX_FILES) {
      throw new Refused(
          "Give 1 to " + MAX_FILES + " test files after '--', got " + files.size() + ".");
    }
    Set<String> distinct = new LinkedHashSet<>();
    for (String file : files) {
      Path path = Path.of(file).normalize();
      if (path.isAbsolute() || path.startsWith("..") || file.isBlank()) {
        throw new Refused(
            "'" + file + "' must be a path relative to the Git root, inside the checkout.");
      }
      if (!distinct.add(path.toString().replace('\\', '/'))) {
        throw new Refused("'" + file + "' is given twice; the files must be distinct.");
      }
    }
    return List.copyOf(distinct);
  }

  private void requireClaim(Request request) throws Refused {
    try {
      database
          .get()
          .read(
              c -> {
                Records.Claim claim = Ledger.claim(c, request.projectId(), request.claimId());
                Ledger.requireCriterion(claim, request.criterionId());
                return claim;
              });
    } catch (ToolException e) {
      throw new Refused(e.code() + ": " + e.getMessage());
    }
  }

  /** The runner's version; a runner whose version probe fails is not available. */
  private static String version(TestRunner runner) throws Refused {
    if (runner.versionCommand().isEmpty()) {
      return null;
    }
    Command.Result probe =
        Command.run(runner.versionCommand(), runner.directory(), Duration.ofSeconds(30));
    if (probe.exitCode() != 0) {
      throw new Refused(
          "The test runner '"
              + runner.name()
              + "' is not available here"
              + (probe.firstLine().isEmpty() ? "" : " (" + probe.firstLine() + ")")
              + "; no receipt was recorded.");
    }
    return probe.firstLine().isEmpty() ? null : probe.firstLine();
  }

  private record Ran(int exitCode, Instant finishedAt) {}

  private Ran run(TestRunner runner) throws Refused {
    ProcessSpec spec =
        ProcessSpec.builder(runner.command(), System.getenv())
            .directory(runner.directory())
            .timeout(timeout)
            .capture(0, 0)
            .build();
    RunningProcess process;
    try {
      process = Processes.start(spec, this::copy);
    } catch (IOException e) {
      throw new Refused(
          "Could not start the test runner '"
              + runner.name()
              + "': "
              + e.getMessage()
              + ". No receipt was recorded.");
    }
    ProcessResult result;
    try {
      result = process.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new Refused("Interrupted; no receipt was recorded.");
    }
    if (result.timedOut()) {
      throw new Refused(
          "The tests did not finish within "
              + timeout.toSeconds()
              + " s; they were stopped and no receipt was recorded.");
    }
    flushOutput();
    return new Ran(result.exitCode(), clock.instant());
  }

  /** The runner's output, both streams as they arrive, goes to the test output. */
  private void copy(StandardStream stream, byte[] bytes, int offset, int length) {
    synchronized (testOutput) {
      try {
        testOutput.write(bytes, offset, length);
      } catch (IOException ignored) {
        // Nobody reads the output any more; the exit code tells the rest.
      }
    }
  }

  private void flushOutput() {
    synchronized (testOutput) {
      try {
        testOutput.flush();
      } catch (IOException ignored) {
        // as above
      }
    }
  }

  private void save(Receipt r) {
    database
        .get()
        .write(
            c -> {
              Ledger.claim(c, r.projectId(), r.claimId());
              Sql.update(
                  c,
                  """
          INSERT INTO evidence_test_runs (run_id, project_id, claim_id, criterion_id, git_revision, runner, runner_version,
            files, exit_code, started_at, finished_at, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
                  r.runId(),
                  r.projectId(),
                  r.claimId(),
                  r.criterionId(),
                  r.gitRevision(),
                  r.runner(),
                  r.runnerVersion(),
                  Json.write(r.files()),
                  r.exitCode(),
                  r.startedAt(),
                  r.finishedAt(),
                  r.finishedAt());
              return r;
            });
  }

  /** The Git checkout, through the git command. */
  private record Git(Path root) {
    static Git at(Path directory) throws Refused {
      String top = call(directory, "rev-parse", "--show-toplevel");
      return new Git(Path.of(top));
    }

    String head() throws Refused {
      return call(root, "rev-parse", "HEAD");
    }

    void requireTracked(String file) throws Refused {
      try {
        call(root, "ls-files", "--error-unmatch", "--", file);
      } catch (Refused e) {
        throw new Refused("'" + file + "' is not a file tracked by Git in " + root + ".");
      }
      if (!Files.isRegularFile(root.resolve(file))) {
        throw new Refused("'" + file + "' is tracked but missing from the working tree.");
      }
    }

    void requireClean() throws Refused {
      String status = call(root, "status", "--porcelain", "--untracked-files=normal");
      if (!status.isEmpty()) {
        throw new Refused("The Git working tree is not clean; commit or stash first:\n" + status);
      }
    }

    private static String call(Path directory, String... args) throws Refused {
      List<String> command = new ArrayList<>();
      command.add("git");
      command.addAll(List.of(args));
      Command.Result result = Command.run(command, directory, Duration.ofSeconds(60));
      if (result.exitCode() == Command.NOT_STARTED) {
        throw new Refused("Git is required to collect test runs: " + result.output());
      }
      if (result.exitCode() != 0) {
        throw new Refused(
            "git "
                + args[0]
                + " failed in "
                + directory
                + (result.firstLine().isEmpty() ? "" : ": " + result.firstLine()));
      }
      return result.output().strip();
    }
  }
}
