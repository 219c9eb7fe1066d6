package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.session.Schedules;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.server.schedules.Drafts;
import dev.cortex.server.schedules.Schedule;
import dev.cortex.server.schedules.ScheduleException;
import dev.cortex.server.schedules.Scheduler;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Session;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.eclipse.jetty.server.Handler;

/**
 * The schedule routes of the session API ({@link Schedules}) and the webhook's callback route,
 * {@link Schedules#CALLBACK}: a turn started from outside, in a named session or a fresh one, whose
 * environment says where it came from ({@code CORTEX_CALLBACK_SOURCE}).
 */
final class ScheduleRoutes {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A channel a schedule may name: as the session API's, or a front door's. */
  static final Pattern CHANNEL = Sessions.CHANNEL;

  private final Scheduler scheduler;
  private final SessionService sessions;
  private final Clock clock;
  private final JsonRoutes routes;

  ScheduleRoutes(Scheduler scheduler, SessionService sessions, Clock clock, String version) {
    this.scheduler = scheduler;
    this.sessions = sessions;
    this.clock = clock;
    this.routes = new JsonRoutes(version);
  }

  Map<String, Handler> handlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(
        Schedules.ADD,
        routes.coded(Schedules.Add.class, Schedules.Add.USAGE, this::add, ScheduleRoutes::status));
    handlers.put(
        Schedules.LIST,
        routes.coded(
            Schedules.Listing.class,
            Schedules.Listing.USAGE,
            listing ->
                new Schedules.Listed(
                    scheduler.list(listing.project()).stream().map(Drafts::view).toList()),
            ScheduleRoutes::status));
    handlers.put(
        Schedules.SHOW,
        routes.coded(
            Schedules.Ref.class,
            Schedules.Ref.USAGE,
            ref -> {
              Scheduler.Detail detail = scheduler.show(ref.id(), 20);
              return new Schedules.Detail(
                  Drafts.view(detail.schedule()),
                  detail.fires().stream().map(Drafts::view).toList());
            },
            ScheduleRoutes::status));
    handlers.put(
        Schedules.PAUSE,
        routes.coded(
            Schedules.Ref.class,
            Schedules.Ref.USAGE,
            ref -> Drafts.view(scheduler.pause(ref.id(), true)),
            ScheduleRoutes::status));
    handlers.put(
        Schedules.RESUME,
        routes.coded(
            Schedules.Ref.class,
            Schedules.Ref.USAGE,
            ref -> Drafts.view(scheduler.pause(ref.id(), false)),
            ScheduleRoutes::status));
    handlers.put(
        Schedules.REMOVE,
        routes.coded(
            Schedules.Ref.class,
            Schedules.Ref.USAGE,
            ref -> {
              scheduler.remove(ref.id());
              return new Schedules.Removed(ref.id(), true);
            },
            ScheduleRoutes::status));
    handlers.put(
        Schedules.RUN_NOW,
        routes.coded(
            Schedules.Ref.class,
            Schedules.Ref.USAGE,
            ref -> new Schedules.Fired(ref.id(), scheduler.runNow(ref.id())),
            ScheduleRoutes::status));
    return handlers;
  }

  /** The webhook's callback route. */
  Map<String, Handler> callbackHandlers() {
    return Map.of(
        Schedules.CALLBACK,
        routes.coded(
            Schedules.Callback.class,
            Schedules.Callback.USAGE,
            this::callback,
            ScheduleRoutes::status));
  }

  static int status(String code) {
    switch (code) {
      case ScheduleException.NOT_FOUND:
        return 404;
      case ScheduleException.LIMIT:
        return 429;
      case ErrorCodes.UNAVAILABLE:
        return 503;
      default:
        return 400;
    }
  }

  private Schedules.View add(Schedules.Add add) {
    Schedule draft = Drafts.draft(add, clock.instant());
    if (draft.target() instanceof Schedule.Target.Session target) {
      try {
        sessions.get(target.sessionId());
      } catch (SessionException e) {
        throw new ScheduleException(
            ScheduleException.NOT_FOUND,
            "No session '" + target.sessionId() + "' to run in (cortex sessions list shows them).");
      }
    }
    if (draft.target() instanceof Schedule.Target.Channel target) {
      if (!CHANNEL.matcher(target.channel()).matches()) {
        throw new ScheduleException(
            ScheduleException.INVALID_ARGUMENT,
            "'"
                + target.channel()
                + "' is not a channel: cli:, web:, slack: or feishu: and an id.");
      }
      // The front doors' channels are theirs: a schedule may run in a session there, not make one.
      if (!target.channel().startsWith("cli:")
          && sessions.findByChannel(target.channel()) == null) {
        throw new ScheduleException(
            ScheduleException.INVALID_ARGUMENT,
            "No session is on "
                + target.channel()
                + " yet; a schedule makes sessions only on cli: channels.");
      }
    }
    if (draft.workingDirectory() != null
        && !java.nio.file.Files.isDirectory(draft.workingDirectory())) {
      throw new ScheduleException(
          ScheduleException.INVALID_ARGUMENT,
          "working_directory " + draft.workingDirectory() + " is not a folder here.");
    }
    if ("command".equals(draft.backend()) && draft.program() == null) {
      throw new ScheduleException(
          ScheduleException.INVALID_ARGUMENT,
          "The command backend needs a program (--program, last on the command line).");
    }
    if (draft.project() != null && !Sessions.PROJECT.matcher(draft.project()).matches()) {
      throw new ScheduleException(
          ScheduleException.INVALID_ARGUMENT,
          "project is 1 to 128 letters, digits and . _ : / -, starting with a letter or digit.");
    }
    String unfit = sessions.unfit(draft.backend(), draft.model());
    if (unfit != null) {
      throw new ScheduleException(ScheduleException.INVALID_ARGUMENT, unfit);
    }
    return Drafts.view(scheduler.add(draft));
  }

  private Schedules.Called callback(Schedules.Callback call) {
    try {
      Session session;
      // With a key, a fresh session is named by it: the same call again finds the session that
      // has its message.
      String named =
          call.session() == null && call.key() != null
              ? "cb-" + dev.cortex.base.Hashes.sha256Prefix(call.source() + "\n" + call.key(), 16)
              : null;
      Session existing = null;
      if (named != null) {
        try {
          existing = sessions.get(named);
        } catch (SessionException none) {
          // made below
        }
      }
      if (call.session() != null) {
        session = sessions.get(call.session());
      } else if (existing != null) {
        session = existing;
      } else {
        session =
            sessions.create(
                new SessionService.NewSession(
                    named,
                    null,
                    call.project(),
                    call.backend(),
                    null,
                    null,
                    null,
                    Session.Composition.DIRECT,
                    Session.StartedBy.CALLBACK,
                    call.program(),
                    call.workingDirectory() == null
                        ? null
                        : java.nio.file.Path.of(call.workingDirectory()),
                    null));
      }
      String key =
          "callback:"
              + call.source()
              + ":"
              + (call.key() != null ? call.key() : HexFormat.of().formatHex(bytes()));
      SessionService.Delivery delivery =
          sessions.wake(
              session.id(), call.text(), SessionService.CALLBACK_SOURCE + call.source(), key);
      return new Schedules.Called(session.id(), delivery.status(), delivery.executionId());
    } catch (SessionException e) {
      throw new CodedException(e.code(), e.getMessage());
    }
  }

  private static byte[] bytes() {
    byte[] bytes = new byte[8];
    RANDOM.nextBytes(bytes);
    return bytes;
  }

  /** The launcher of fires: a session per fire, the session on a channel, or an existing one. */
  static Scheduler.Launcher launcher(SessionService sessions) {
    return new Scheduler.Launcher() {
      @Override
      public Scheduler.Launched launch(Schedule s, long fireId, String key) throws Exception {
        try {
          return start(s, fireId, key);
        } catch (SessionException e) {
          throw new CodedException(e.code(), e.getMessage());
        }
      }

      private Scheduler.Launched start(Schedule s, long fireId, String key)
          throws SessionException {
        Session session;
        if (s.target() instanceof Schedule.Target.Session target) {
          session = sessions.get(target.sessionId());
        } else if (s.target() instanceof Schedule.Target.Channel target) {
          session = sessions.findByChannel(target.channel());
          if (session == null) {
            session = sessions.createFromFrontDoor(fresh(s, null, target.channel()));
          }
        } else {
          // Named by the fire, so that a fire started again after a restart finds its session.
          String name = "sched-" + s.id().substring(4) + "-" + fireId;
          Session made;
          try {
            made = sessions.get(name);
          } catch (SessionException none) {
            made = sessions.create(fresh(s, name, null));
          }
          session = made;
        }
        SessionService.Delivery delivery =
            sessions.wake(session.id(), s.prompt(), SessionService.SCHEDULE_SOURCE + s.id(), key);
        // The turn that took it when it started one (a message queued behind a turn has none yet).
        return new Scheduler.Launched(
            session.id(),
            SessionService.STARTED.equals(delivery.status()) ? delivery.executionId() : null);
      }

      @Override
      public boolean running(String sessionId) {
        try {
          Session session = sessions.get(sessionId);
          return sessions.runningExecution(session.id()) != null
              || !"idle".equals(session.state().wire());
        } catch (SessionException e) {
          return false;
        }
      }
    };
  }

  private static SessionService.NewSession fresh(Schedule s, String name, String channel) {
    return new SessionService.NewSession(
        name,
        channel,
        s.project(),
        s.backend(),
        s.model(),
        null,
        null,
        Session.Composition.DIRECT,
        Session.StartedBy.SCHEDULE,
        s.program(),
        s.workingDirectory(),
        null);
  }

  /** The environment of pre-checks: what a shell needs, none of the server's secrets. */
  static Map<String, String> checkEnvironment(Map<String, String> env) {
    Map<String, String> kept = new LinkedHashMap<>();
    for (String name :
        List.of("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ", "SHELL")) {
      if (env.get(name) != null) {
        kept.put(name, env.get(name));
      }
    }
    kept.putIfAbsent("PATH", "/usr/local/bin:/usr/bin:/bin");
    return kept;
  }
}
