package dev.cortex.server.daemon;

import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.session.Workbench;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Session;
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

  private final SessionService sessions;
  private final Executions executions;
  private final DeviceHub hub;
  private final MachineRegistry registry;
  private final Function<Session, Sessions.View> view;
  private final JsonRoutes routes;

  UiReadRoutes(
      SessionService sessions,
      Executions executions,
      DeviceHub hub,
      MachineRegistry registry,
      Function<Session, Sessions.View> view,
      String version) {
    this.sessions = sessions;
    this.executions = executions;
    this.hub = hub;
    this.registry = registry;
    this.view = view;
    this.routes = new JsonRoutes(version);
  }

  Map<String, Handler> handlers() {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(
        Workbench.OVERVIEW,
        routes.post(
            (body, request, response, callback) -> {
              if (JsonRoutes.read(
                      body, Workbench.Nothing.class, Workbench.Nothing.USAGE, response, callback)
                  != null) {
                JsonRoutes.result(response, callback, overview());
              }
            }));
    handlers.put(
        Workbench.EXECUTIONS,
        routes.post(
            (body, request, response, callback) -> {
              Workbench.ExecutionsQuery query =
                  JsonRoutes.read(
                      body,
                      Workbench.ExecutionsQuery.class,
                      Workbench.ExecutionsQuery.USAGE,
                      response,
                      callback);
              if (query != null) {
                JsonRoutes.result(response, callback, executions(query));
              }
            }));
    handlers.put(
        Workbench.DEVICES,
        routes.post(
            (body, request, response, callback) -> {
              if (JsonRoutes.read(
                      body, Workbench.Nothing.class, Workbench.Nothing.USAGE, response, callback)
                  != null) {
                JsonRoutes.result(response, callback, devices());
              }
            }));
    return handlers;
  }

  Workbench.Overview overview() {
    List<Sessions.View> views = sessions.list(MAX_SESSIONS).stream().map(view).toList();
    int running = (int) views.stream().filter(v -> v.runningExecution() != null).count();
    int waiting = (int) views.stream().filter(v -> v.waitingFor() != null).count();
    return new Workbench.Overview(views, running, waiting, hub.online().size());
  }

  private Workbench.Executions executions(Workbench.ExecutionsQuery query) {
    List<Execution> found =
        executions.query(new Executions.Query(null, null, null, Workbench.MAX_EXECUTIONS));
    List<Workbench.ExecutionRow> rows = new ArrayList<>();
    for (Execution e : found) {
      if (query.session() != null && !query.session().equals(e.sessionId())) {
        continue;
      }
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
      if (rows.size() == query.limit()) {
        break;
      }
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
