package dev.cortex.server.daemon;

import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.session.Workbench;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.waitpoints.Waitpoint;
import dev.cortex.server.waitpoints.Waitpoints;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eclipse.jetty.server.Handler;

/**
 * The workbench's read API ({@link Workbench}) over the daemon's own stores: the sessions with
 * their live state, the newest turns, and the registered devices. Mounted only on the workbench's
 * connector, behind its guard.
 */
final class UiReadRoutes {
  private static final int MAX_SESSIONS = 500;

  /** These routes only read; what they refuse is the request. */
  private static final java.util.function.ToIntFunction<String> STATUS = code -> 400;

  private final SessionService sessions;
  private final Executions executions;
  private final DeviceHub hub;
  private final MachineRegistry registry;
  private final Function<Session, Sessions.View> view;
  private final CostReport costs;
  private final Waitpoints waitpoints;
  private final JsonRoutes routes;

  UiReadRoutes(
      SessionService sessions,
      Executions executions,
      DeviceHub hub,
      MachineRegistry registry,
      Function<Session, Sessions.View> view,
      CostReport costs,
      Waitpoints waitpoints,
      String version) {
    this.sessions = sessions;
    this.executions = executions;
    this.hub = hub;
    this.registry = registry;
    this.view = view;
    this.costs = costs;
    this.waitpoints = waitpoints;
    this.routes = new JsonRoutes(version);
  }

  Map<String, Handler> handlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(
        Workbench.OVERVIEW,
        routes.coded(Workbench.Nothing.class, Workbench.Nothing.USAGE, none -> overview(), STATUS));
    handlers.put(
        Workbench.EXECUTIONS,
        routes.coded(
            Workbench.ExecutionsQuery.class,
            Workbench.ExecutionsQuery.USAGE,
            this::executions,
            STATUS));
    handlers.put(
        Workbench.DEVICES,
        routes.coded(Workbench.Nothing.class, Workbench.Nothing.USAGE, none -> devices(), STATUS));
    handlers.put(
        Workbench.COSTS,
        routes.coded(
            Workbench.CostsQuery.class,
            Workbench.CostsQuery.USAGE,
            query -> costs.report(query.days()),
            STATUS));
    handlers.put(
        Workbench.WAITPOINTS,
        routes.coded(
            Workbench.WaitpointsQuery.class,
            Workbench.WaitpointsQuery.USAGE,
            query -> waitpoints(query.state()),
            STATUS));
    return handlers;
  }

  private Workbench.Waitpoints waitpoints(String state) {
    List<Waitpoint.State> states =
        state == null
            ? List.of()
            : switch (state) {
              case "armed" -> List.of(Waitpoint.State.OPEN, Waitpoint.State.CLOSING);
              case "fired" -> List.of(Waitpoint.State.RESOLVED);
              case "expired" -> List.of(Waitpoint.State.EXPIRED);
              default -> List.of(Waitpoint.State.CANCELLED);
            };
    List<Workbench.WaitpointRow> rows = new ArrayList<>();
    for (Waitpoints.Listed listed :
        waitpoints.newest(states, Workbench.MAX_WAITPOINTS, Workbench.SHOWN_SIGNALS)) {
      Waitpoint w = listed.waitpoint();
      List<Workbench.WaitSignal> signals = new ArrayList<>();
      for (Waits.Report r : listed.signals()) {
        signals.add(new Workbench.WaitSignal(r.at(), r.member(), r.status(), r.message(), r.via()));
      }
      rows.add(
          new Workbench.WaitpointRow(
              w.id(),
              w.sessionId(),
              w.label(),
              w.intent(),
              shown(w.state()),
              w.state().wire(),
              w.fires(),
              w.device(),
              text(w.createdAt()),
              text(w.expiresAt()),
              text(w.endedAt()),
              signals));
    }
    return new Workbench.Waitpoints(rows);
  }

  /** The state as the workbench names it. */
  private static String shown(Waitpoint.State state) {
    if (state.waiting()) {
      return "armed";
    }
    switch (state) {
      case RESOLVED:
        return "fired";
      case EXPIRED:
        return "expired";
      default:
        return "cancelled";
    }
  }

  Workbench.Overview overview() {
    List<Sessions.View> views = sessions.list(MAX_SESSIONS).stream().map(view).toList();
    int running = (int) views.stream().filter(v -> v.runningExecution() != null).count();
    int waiting = (int) views.stream().filter(v -> v.waitingFor() != null).count();
    return new Workbench.Overview(views, running, waiting, hub.online().size());
  }

  private Workbench.Executions executions(Workbench.ExecutionsQuery query) {
    List<Execution> found =
        executions.query(new Executions.Query(null, null, null, query.session(), query.limit()));
    List<Workbench.ExecutionRow> rows = new ArrayList<>();
    for (Execution e : found) {
      rows.add(
          new Workbench.ExecutionRow(
              e.id(),
              e.kind(),
              e.status().wire(),
              e.sessionId(),
              e.project(),
              e.backend(),
              e.model(),
              text(e.startedAt()),
              text(e.endedAt()),
              e.costUsd(),
              e.turns(),
              e.error()));
    }
    return new Workbench.Executions(rows);
  }

  private Workbench.Devices devices() {
    List<Workbench.Device> devices = new ArrayList<>();
    for (Machines.Machine machine : registry.current().machines().values()) {
      DeviceLink link = hub.link(machine.name());
      HubMessage.Hello hello = link != null ? link.hello() : hub.lastHello(machine.name());
      devices.add(
          new Workbench.Device(
              machine.name(),
              link != null,
              hello != null && hello.platform() != null ? hello.platform() : machine.platform(),
              link == null ? null : text(link.lastHeard()),
              link == null ? 0 : link.pendingCount()));
    }
    return new Workbench.Devices(devices);
  }

  private static String text(Instant at) {
    return at == null ? null : at.toString();
  }
}
