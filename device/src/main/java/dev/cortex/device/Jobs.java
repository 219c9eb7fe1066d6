package dev.cortex.device;

import dev.cortex.base.CortexHome;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Spool;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * Background jobs on this device: commands started with {@code run_in_background}, which outlive
 * the call (and the client: a restart does not end them). Each job has a folder under the jobs
 * directory with its description ({@code job.json}), its combined output ({@code output.log}) and,
 * once it ends, its exit code ({@code exit}); the job can be listed, its output tailed, and its
 * whole process group ended. The newest {@value #KEEP} jobs are kept; older finished ones go.
 */
final class Jobs {
  static final int KEEP = 100;
  static final int DEFAULT_TAIL_BYTES = 16 * 1024;
  static final int MAX_TAIL_BYTES = 1024 * 1024;

  /**
   * Runs the command in bash ({@code $3}: {@code -c} in the login environment, or {@code -lc}),
   * then records its exit code atomically.
   */
  private static final String WRAPPER =
      "bash \"$3\" \"$1\"; code=$?; printf '%s\\n' \"$code\" > \"$2.tmp\" && mv -f \"$2.tmp\""
          + " \"$2\"";

  /** The waitpoint a job signals when it ends, and the mark that it has. */
  static final String SIGNAL_FILE = "signal.json";

  static final String SIGNALLED = "signalled";

  /** Output a job's signal carries, from its end. */
  static final int SIGNAL_TAIL_CHARS = 2_000;

  private static final DateTimeFormatter ID_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  private final Path dir;
  private final LoginShell shell;
  private final Path workingDirectory;
  private final Clock clock;

  Jobs(Path dir, Map<String, String> environment, Path workingDirectory, Clock clock) {
    this(dir, LoginShell.perCommand(environment), workingDirectory, clock);
  }

  Jobs(Path dir, LoginShell shell, Path workingDirectory, Clock clock) {
    this.dir = dir;
    this.shell = shell;
    this.workingDirectory = workingDirectory;
    this.clock = clock;
  }

  /** What a job's folder records at its start. */
  record Started(
      String id,
      String command,
      String description,
      long pid,
      String startedAt,
      String leaderStart) {}

  Actions.JobInfo start(String command, String description, Actions.JobSignal signal)
      throws ActionException {
    String id =
        ID_TIME.format(clock.instant()) + "-" + UUID.randomUUID().toString().substring(0, 6);
    Path folder = CortexHome.ensureDirectory(dir.resolve(id));
    Path log = folder.resolve("output.log");
    Processes.Detached detached;
    LoginShell.Invocation bash = shell.now();
    try {
      Files.createFile(log);
      detached =
          Processes.startDetached(
              ProcessSpec.builder(
                      List.of(
                          "/bin/sh",
                          "-c",
                          WRAPPER,
                          "cortex-job",
                          command,
                          folder.resolve("exit").toString(),
                          bash.flag()),
                      bash.environment())
                  .directory(workingDirectory)
                  .build(),
              log);
    } catch (IOException e) {
      throw new ActionException(Codes.INTERNAL, "The job could not be started: " + e.getMessage());
    }
    Started started =
        new Started(
            id,
            command,
            description,
            detached.pid(),
            clock.instant().toString(),
            detached.startedAt().toString());
    if (signal != null) {
      // Owner-only, like every file writeAtomically makes: it holds the waitpoint's secret.
      CortexHome.writeAtomically(
          folder.resolve(SIGNAL_FILE), WireJson.mapper().writeValueAsString(signal));
    }
    CortexHome.writeAtomically(
        folder.resolve("job.json"), WireJson.mapper().writeValueAsString(started));
    prune();
    return info(folder);
  }

  Actions.JobResult handle(Actions.Job params) throws ActionException {
    String action =
        params.action() == null ? (params.jobId() == null ? "list" : "status") : params.action();
    return switch (action) {
      case "list" -> new Actions.JobResult(list(), null, false);
      case "status" -> new Actions.JobResult(List.of(info(folder(params.jobId()))), null, false);
      case "output" -> output(params);
      case "kill" -> new Actions.JobResult(List.of(kill(folder(params.jobId()))), null, false);
      default ->
          throw ActionException.invalid(
              "job action must be list, status, output or kill; got '" + action + "'.");
    };
  }

  private Path folder(String id) throws ActionException {
    if (id == null || !id.matches("[0-9]{8}-[0-9]{6}-[0-9a-f]{6}")) {
      throw ActionException.invalid(
          "job_id is required and looks like 20261201-101500-3fa2c1 (from remote_bash with"
              + " run_in_background, or the job list).");
    }
    Path folder = dir.resolve(id);
    if (!Files.isRegularFile(folder.resolve("job.json"))) {
      throw new ActionException(
          Codes.NOT_FOUND, "No job '" + id + "' on this device; list the jobs to see those kept.");
    }
    return folder;
  }

  List<Actions.JobInfo> list() {
    List<Actions.JobInfo> jobs = new ArrayList<>();
    for (Path folder : folders()) {
      try {
        jobs.add(info(folder));
      } catch (ActionException e) {
        // a folder without a readable record is not a job
      }
    }
    return jobs;
  }

  private List<Path> folders() {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(dir)) {
      return entries
          .filter(p -> Files.isRegularFile(p.resolve("job.json")))
          .sorted(Comparator.comparing((Path p) -> p.getFileName().toString()).reversed())
          .toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  private Actions.JobInfo info(Path folder) throws ActionException {
    Started started;
    try {
      started =
          WireJson.mapper().readValue(Files.readString(folder.resolve("job.json")), Started.class);
    } catch (IOException | RuntimeException e) {
      throw new ActionException(
          Codes.INTERNAL, "The record of job " + folder.getFileName() + " is unreadable.");
    }
    Path exit = folder.resolve("exit");
    String state;
    Integer code = null;
    String ended = null;
    if (Files.exists(folder.resolve("killed"))) {
      // Marked before the job's group is signalled: a wrapper that outlives its command by a moment
      // still writes an exit code, of a job that was killed all the same.
      state = "killed";
      ended = modified(folder.resolve("killed"));
    } else if (Files.isRegularFile(exit)) {
      state = "exited";
      code = readCode(exit);
      ended = modified(exit);
    } else if (alive(started)) {
      state = "running";
    } else {
      state = "lost";
    }
    Path log = folder.resolve("output.log");
    long logBytes;
    try {
      logBytes = Files.exists(log) ? Files.size(log) : 0;
    } catch (IOException e) {
      logBytes = 0;
    }
    Actions.JobSignal signal = signal(folder);
    return new Actions.JobInfo(
        started.id(),
        started.command(),
        started.description(),
        started.pid(),
        state,
        code,
        started.startedAt(),
        ended,
        log.toString(),
        logBytes,
        signal == null ? null : signal.waitpoint());
  }

  private static Actions.JobSignal signal(Path folder) {
    Path file = folder.resolve(SIGNAL_FILE);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      return WireJson.mapper().readValue(Files.readString(file), Actions.JobSignal.class);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Writes the signal of every job that ended with a waitpoint armed and has not signalled yet into
   * {@code spool}; each signal's id is the job's, so a job signals once even if this runs twice.
   *
   * @return how many signals were written
   */
  int signalEnded(Spool spool) {
    int written = 0;
    for (Path folder : folders()) {
      if (Files.exists(folder.resolve(SIGNALLED))) {
        continue;
      }
      Actions.JobSignal signal = signal(folder);
      if (signal == null) {
        continue;
      }
      Actions.JobInfo job;
      try {
        job = info(folder);
      } catch (ActionException e) {
        continue;
      }
      if (job.state().equals("running")) {
        continue;
      }
      boolean ok = job.state().equals("exited") && Integer.valueOf(0).equals(job.exitCode());
      String message =
          switch (job.state()) {
            case "exited" -> "job " + job.id() + " exited with code " + job.exitCode();
            case "killed" -> "job " + job.id() + " was killed";
            default ->
                "job " + job.id() + " ended without an exit code (the device may have restarted)";
          };
      java.util.Map<String, Object> data = new java.util.LinkedHashMap<>();
      data.put("job_id", job.id());
      data.put("state", job.state());
      data.put("exit_code", job.exitCode());
      data.put("command", clip(job.command(), 500));
      data.put("output_tail", tail(folder.resolve("output.log")));
      spool.write(
          new Signals.Signal(
              signal.waitpoint(),
              signal.secret(),
              ok ? "ok" : "fail",
              message,
              null,
              WireJson.tree(data),
              "job-" + job.id()));
      CortexHome.writeAtomically(folder.resolve(SIGNALLED), clock.instant() + "\n");
      written++;
    }
    return written;
  }

  private static String tail(Path log) {
    try {
      return readTail(log, SIGNAL_TAIL_CHARS).text();
    } catch (IOException e) {
      return "";
    }
  }

  /** The last {@code bytes} of a file, and whether anything came before them. */
  private record Tail(String text, boolean cut) {}

  private static Tail readTail(Path path, int bytes) throws IOException {
    try (RandomAccessFile file = new RandomAccessFile(path.toFile(), "r")) {
      long length = file.length();
      long from = Math.max(0, length - bytes);
      byte[] read = new byte[(int) (length - from)];
      file.seek(from);
      file.readFully(read);
      return new Tail(new String(read, StandardCharsets.UTF_8), from > 0);
    }
  }

  private static String clip(String text, int max) {
    return text == null || text.length() <= max ? text : text.substring(0, max) + "…";
  }

  private static boolean alive(Started started) {
    return ProcessHandle.of(started.pid())
        .filter(ProcessHandle::isAlive)
        .flatMap(h -> h.info().startInstant())
        .map(s -> s.toString().equals(started.leaderStart()))
        .orElse(false);
  }

  private static Integer readCode(Path exit) {
    try {
      return Integer.valueOf(Files.readString(exit).strip());
    } catch (IOException | NumberFormatException e) {
      return null;
    }
  }

  private static String modified(Path file) {
    try {
      return Files.getLastModifiedTime(file).toInstant().toString();
    } catch (IOException e) {
      return null;
    }
  }

  private Actions.JobResult output(Actions.Job params) throws ActionException {
    Path folder = folder(params.jobId());
    int tail =
        params.tailBytes() == null
            ? DEFAULT_TAIL_BYTES
            : Math.max(1, Math.min(MAX_TAIL_BYTES, params.tailBytes()));
    Path log = folder.resolve("output.log");
    Tail read;
    try {
      read = readTail(log, tail);
    } catch (IOException e) {
      throw Paths.failure(log, e);
    }
    return new Actions.JobResult(List.of(info(folder)), read.text(), read.cut());
  }

  private Actions.JobInfo kill(Path folder) throws ActionException {
    Actions.JobInfo job = info(folder);
    if (!job.state().equals("running")) {
      return job;
    }
    Started started;
    try {
      started =
          WireJson.mapper().readValue(Files.readString(folder.resolve("job.json")), Started.class);
    } catch (IOException e) {
      throw Paths.failure(folder, e);
    }
    CortexHome.writeAtomically(folder.resolve("killed"), clock.instant() + "\n");
    int ended = Processes.endGroup(started.pid(), Instant.parse(started.leaderStart()));
    if (ended == 0) {
      ProcessHandle.of(started.pid())
          .ifPresent(
              h -> {
                h.descendants().forEach(ProcessHandle::destroyForcibly);
                h.destroyForcibly();
              });
    }
    return info(folder);
  }

  /** Removes the oldest finished jobs beyond {@link #KEEP}. */
  private void prune() {
    List<Path> folders = folders();
    for (Path folder : folders.subList(Math.min(KEEP, folders.size()), folders.size())) {
      try {
        if (!info(folder).state().equals("running")) {
          deleteTree(folder);
        }
      } catch (ActionException | IOException e) {
        // left for the next time
      }
    }
  }

  private static void deleteTree(Path folder) throws IOException {
    try (Stream<Path> entries = Files.walk(folder)) {
      for (Path entry : entries.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(entry);
      }
    }
  }
}
