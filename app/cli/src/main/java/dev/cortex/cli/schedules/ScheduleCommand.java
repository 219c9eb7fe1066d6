package dev.cortex.cli.schedules;

import dev.cortex.base.Cancellation;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Table;
import dev.cortex.protocol.session.Schedules;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code cortex schedule add|list|show|pause|resume|remove|run-now}: scheduled runs of the agent
 * server, kept and fired by it. An agent reads its project from {@code cortex_context} and passes
 * it with {@code --project}.
 */
@Command(
    name = "schedule",
    mixinStandardHelpOptions = true,
    description =
        "Scheduled runs of the agent server: add, list, show, pause, resume, remove, run-now.")
public final class ScheduleCommand implements Callable<Integer> {
  static final Duration DEADLINE = Duration.ofSeconds(60);

  private final Io io;

  public ScheduleCommand(Io io) {
    this.io = io;
  }

  public static CommandLine line(Io io) {
    CommandLine schedule = new CommandLine(new ScheduleCommand(io));
    schedule.addSubcommand("add", new Add(io));
    schedule.addSubcommand("list", new ListSchedules(io));
    schedule.addSubcommand("show", new Show(io));
    schedule.addSubcommand("pause", new Change(io, Schedules.PAUSE, "paused"));
    schedule.addSubcommand("resume", new Change(io, Schedules.RESUME, "resumed"));
    schedule.addSubcommand("remove", new Change(io, Schedules.REMOVE, "removed"));
    schedule.addSubcommand("run-now", new Change(io, Schedules.RUN_NOW, "fired"));
    return schedule;
  }

  @Override
  public Integer call() {
    io.err().println("cortex schedule: say add, list, show, pause, resume, remove or run-now.");
    return CortexCommand.USAGE;
  }

  static int attempt(Io io, dev.cortex.cli.sessions.SessionVerbs.Call call) {
    return dev.cortex.cli.sessions.SessionVerbs.attempt(io, call);
  }

  static <T> T post(Io io, String route, Object request, Class<T> answer) {
    return io.agentServer().post(route, request, answer, DEADLINE, Cancellation.NONE);
  }

  /** An instant in the user's zone ({@code TZ}, else the system's), for people. */
  static String local(Io io, String instant) {
    if (instant == null) {
      return "-";
    }
    ZoneId zone;
    try {
      zone = io.env("TZ") != null ? ZoneId.of(io.env("TZ")) : ZoneId.systemDefault();
    } catch (java.time.DateTimeException e) {
      zone = ZoneId.systemDefault();
    }
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm z")
        .format(Instant.parse(instant).atZone(zone));
  }

  /** {@code cortex schedule add}. */
  @Command(
      name = "add",
      mixinStandardHelpOptions = true,
      description = {
        "Add a schedule: a prompt, one timing, and where it runs (a fresh session each time by"
            + " default).",
        "Timings: --every 30m | --daily 09:00 | --weekly mon,fri@09:00 | --cron '0 9 * * 1-5' |"
            + " --at 2026-12-24T09:00 (with --zone, an IANA zone; default UTC)."
      })
  public static final class Add implements Callable<Integer> {
    private final Io io;

    @Option(
        names = "--project",
        paramLabel = "PROJECT",
        description = "The project it runs for (from cortex_context).")
    String project;

    @Parameters(
        index = "0",
        arity = "0..1",
        paramLabel = "PROMPT",
        description = "What the agent is asked each time.")
    String prompt;

    @Option(
        names = "--prompt-file",
        paramLabel = "FILE",
        description = "Read the prompt from FILE.")
    Path promptFile;

    @Option(
        names = "--every",
        paramLabel = "INTERVAL",
        description = "Every INTERVAL (at least 1m): 30m, 2h, 1d.")
    String every;

    @Option(names = "--daily", paramLabel = "HH:MM", description = "Every day at HH:MM in --zone.")
    String daily;

    @Option(
        names = "--weekly",
        paramLabel = "DAYS@HH:MM",
        description = "On DAYS at HH:MM in --zone: mon,fri@09:00 or mon-fri@17:30.")
    String weekly;

    @Option(
        names = "--cron",
        paramLabel = "EXPR",
        description =
            "A cron expression of five fields (minute hour day month weekday), in --zone.")
    String cron;

    @Option(
        names = "--at",
        paramLabel = "INSTANT",
        description = "Once: 2026-12-24T09:00:00Z, or 2026-12-24T09:00 in --zone.")
    String at;

    @Option(
        names = "--zone",
        paramLabel = "ZONE",
        description = "The IANA time zone of the timing (default UTC).")
    String zone;

    @Option(
        names = "--session",
        paramLabel = "SESSION",
        description = "Run in this existing session.")
    String session;

    @Option(
        names = "--channel",
        paramLabel = "CHANNEL",
        description =
            "Run in the session on CHANNEL (cli:..., slack:..., made when there is none).")
    String channel;

    @Option(
        names = "--backend",
        paramLabel = "BACKEND",
        description = "claude, api or command (fresh sessions; default: the server's).")
    String backend;

    @Option(names = "--model", paramLabel = "MODEL", description = "The model of fresh sessions.")
    String model;

    @Option(
        names = "--overlap",
        paramLabel = "POLICY",
        description = "When the previous run still goes: skip (default), queue (one) or parallel.")
    String overlap;

    @Option(
        names = "--missed",
        paramLabel = "POLICY",
        description =
            "When the server was down at the due time: run-late (default, within --grace) or skip.")
    String missed;

    @Option(
        names = "--grace",
        paramLabel = "DURATION",
        description = "How late a missed run may still run (default 1h, at most 7d).")
    String grace;

    @Option(
        names = "--check",
        paramLabel = "COMMAND",
        description = "A shell command run first: the run goes only when it exits 0.")
    String check;

    @Option(
        names = "--check-timeout",
        paramLabel = "DURATION",
        description = "How long the check may take (default 30s, at most 5m).")
    String checkTimeout;

    @Option(
        names = "--cwd",
        paramLabel = "DIR",
        description = "Where fresh sessions and the check run (default: here).")
    Path cwd;

    @Option(
        names = "--program",
        paramLabel = "ARG",
        arity = "1..*",
        description =
            "For --backend command: the program of each turn; last, since it takes every argument after it.")
    List<String> program;

    @Option(names = "--paused", description = "Add it paused.")
    boolean paused;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public Add(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      String text = prompt;
      if (promptFile != null) {
        if (prompt != null) {
          return CortexCommand.usage(
              io, "cortex schedule add: give PROMPT or --prompt-file, not both.");
        }
        try {
          text = Files.readString(promptFile);
        } catch (IOException e) {
          return CortexCommand.usage(io, "cortex schedule add: cannot read " + promptFile + ".");
        }
      }
      String prompt = text;
      return attempt(
          io,
          () -> {
            Schedules.Add request =
                new Schedules.Add(
                    project,
                    prompt,
                    every,
                    daily,
                    weekly,
                    cron,
                    at,
                    zone,
                    session,
                    channel,
                    backend,
                    model,
                    overlap,
                    missed,
                    grace,
                    check,
                    checkTimeout,
                    (cwd == null ? Path.of("") : cwd).toAbsolutePath().normalize().toString(),
                    program,
                    paused ? Boolean.TRUE : null);
            Schedules.View view = post(io, Schedules.ADD, request, Schedules.View.class);
            if (json) {
              io.out().println(Json.writePretty(view));
            } else {
              io.out()
                  .println(
                      "Added "
                          + view.id()
                          + " ("
                          + view.timing()
                          + "); next "
                          + local(io, view.nextDue())
                          + ".");
            }
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex schedule list}. */
  @Command(
      name = "list",
      mixinStandardHelpOptions = true,
      description = "List the schedules, with the next fire in your time zone.")
  public static final class ListSchedules implements Callable<Integer> {
    private final Io io;

    @Option(names = "--project", paramLabel = "PROJECT", description = "Only this project's.")
    String project;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public ListSchedules(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      return attempt(
          io,
          () -> {
            Schedules.Listed listed =
                post(io, Schedules.LIST, new Schedules.Listing(project), Schedules.Listed.class);
            if (json) {
              io.out().println(Json.writePretty(listed.schedules()));
              return CortexCommand.OK;
            }
            if (listed.schedules().isEmpty()) {
              io.out().println("No schedules. Add one with 'cortex schedule add'.");
              return CortexCommand.OK;
            }
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("ID", "PROJECT", "TIMING", "TARGET", "NEXT", "STATE"));
            for (Schedules.View v : listed.schedules()) {
              rows.add(
                  List.of(
                      v.id(),
                      v.project() == null ? "-" : v.project(),
                      v.timing(),
                      v.target(),
                      v.paused() ? "-" : local(io, v.nextDue()),
                      v.paused() ? "paused" : "active"));
            }
            Table.print(io.out(), rows);
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex schedule show ID}. */
  @Command(
      name = "show",
      mixinStandardHelpOptions = true,
      description = "Show a schedule and its last fires.")
  public static final class Show implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "ID", description = "e.g. sch-3fa2c1d0e4b5.")
    String id;

    @Option(names = "--json", description = "Print JSON.")
    boolean json;

    public Show(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      return attempt(
          io,
          () -> {
            Schedules.Detail detail =
                post(io, Schedules.SHOW, new Schedules.Ref(id), Schedules.Detail.class);
            if (json) {
              io.out().println(Json.writePretty(detail));
              return CortexCommand.OK;
            }
            Schedules.View v = detail.schedule();
            io.out().println(v.id() + (v.paused() ? " (paused)" : ""));
            io.out().println("  project:  " + (v.project() == null ? "-" : v.project()));
            io.out().println("  timing:   " + v.timing());
            io.out().println("  next:     " + (v.paused() ? "-" : local(io, v.nextDue())));
            io.out().println("  target:   " + v.target());
            io.out().println("  overlap:  " + v.overlap() + ", missed: " + v.missed());
            if (v.check() != null) {
              io.out().println("  check:    " + v.check());
            }
            io.out().println("  prompt:   " + v.prompt().lines().findFirst().orElse(""));
            List<List<String>> rows = new ArrayList<>();
            rows.add(List.of("FIRE", "DUE", "STATE", "SESSION", "OUTCOME", "WHY"));
            for (Schedules.FireView f : detail.fires()) {
              rows.add(
                  List.of(
                      Long.toString(f.id()),
                      local(io, f.dueAt()),
                      f.state(),
                      f.sessionId() == null ? "-" : f.sessionId(),
                      f.outcome() == null ? "-" : f.outcome(),
                      f.reason() == null ? "" : f.reason()));
            }
            if (rows.size() > 1) {
              io.out().println();
              Table.print(io.out(), rows);
            }
            return CortexCommand.OK;
          });
    }
  }

  /** {@code cortex schedule pause|resume|remove|run-now ID}. */
  @Command(mixinStandardHelpOptions = true, description = "Change a schedule.")
  public static final class Change implements Callable<Integer> {
    private final Io io;
    private final String route;
    private final String done;

    @Parameters(index = "0", paramLabel = "ID", description = "e.g. sch-3fa2c1d0e4b5.")
    String id;

    Change(Io io, String route, String done) {
      this.io = io;
      this.route = route;
      this.done = done;
    }

    @Override
    public Integer call() {
      return attempt(
          io,
          () -> {
            // A refusal or an unreachable server throws: reaching here, it is done.
            post(io, route, new Schedules.Ref(id), Object.class);
            io.out().println(id + " " + done + ".");
            return CortexCommand.OK;
          });
    }
  }
}
