package dev.cortex.server.daemon;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.base.Redactor;
import dev.cortex.base.StartupException;
import dev.cortex.http.GuardedHandler;
import dev.cortex.http.HttpHost;
import dev.cortex.http.RequestGuard;
import dev.cortex.models.ModelPrices;
import dev.cortex.protocol.hub.Hub;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Spool;
import dev.cortex.protocol.webhook.SubagentRoles;
import dev.cortex.protocol.webhook.Webhook;
import dev.cortex.server.channels.FrontDoor;
import dev.cortex.server.channels.feishu.FeishuApi;
import dev.cortex.server.channels.feishu.FeishuChannel;
import dev.cortex.server.channels.feishu.FeishuSettings;
import dev.cortex.server.channels.slack.SlackChannel;
import dev.cortex.server.channels.slack.SlackSettings;
import dev.cortex.server.sessions.AllowlistCheck;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.SessionEnvironment;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.SessionSettings;
import dev.cortex.server.sessions.TeamSettings;
import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.server.sessions.store.Transcript;
import dev.cortex.server.waitpoints.Recipes;
import dev.cortex.server.waitpoints.WaitSettings;
import dev.cortex.server.waitpoints.Waitpoints;
import dev.cortex.server.waitpoints.WaitpointsSchema;
import dev.cortex.server.workbench.EventJournal;
import dev.cortex.server.workbench.Signins;
import dev.cortex.server.workbench.UiAssets;
import dev.cortex.server.workbench.UiEvents;
import dev.cortex.server.workbench.UiGuard;
import dev.cortex.server.workbench.UiRoutes;
import dev.cortex.server.workbench.UiSettings;
import dev.cortex.storage.Database;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * The agent server: the loopback webhook MCP tools call, the device hub remote devices connect to,
 * the device registry and credentials. One Jetty server holds both ports. {@link #stop()} is
 * graceful: new work is refused, pending remote commands fail with a clear error, connections
 * close, and requests in flight get the grace period to finish.
 */
public final class Daemon implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Daemon.class);
  static final String WEBHOOK = "webhook";
  static final String HUB = "hub";

  /**
   * The hub's own threads: devices' messages are handled at once whatever the webhook's requests
   * wait for (each remote command holds a webhook thread until its device answers).
   */
  static final int HUB_THREADS = 64;

  static final String UI = "ui";

  private final Options options;
  private final DeviceHub hub;
  private final MachineRegistry registry;
  private final HttpHost http;
  private final ScheduledExecutorService sweeper;
  private volatile SlackChannel slack;
  private volatile FeishuChannel feishu;
  private volatile dev.cortex.server.schedules.Scheduler scheduler;
  private final SessionService sessions;
  private final InteractionService interactions;
  private final CountDownLatch stopped = new CountDownLatch(1);
  private final Path serverFile;
  private volatile boolean stopping;

  /** The subagents, ended before the sessions when the server stops. */
  private volatile SubagentService subagents;

  /** The teams' workers, no longer followed once the server stops. */
  private volatile TeamService team;

  /** The workbench's event streams, ended first when the server stops. */
  private volatile UiEvents uiEvents;

  /** The home's lock, held from the start until the server stopped. */
  private volatile HomeLock lock;

  /**
   * What the server needs from its surroundings.
   *
   * @param writeClientConfigs writes the MCP client configuration files (skipped when {@code
   *     CORTEX_CONFIG_IMMUTABLE=1})
   * @param settingsProblem what is wrong with the last edit of cortex.toml, if anything, for {@code
   *     GET /health}
   * @param subagentRoles the roles subagents may take, as they stand now
   * @param team team mode ({@code [team]}): which sessions get the {@code workers} group
   */
  public record Options(
      CortexHome home,
      Map<String, String> env,
      ServerSettings server,
      DeviceSettings devices,
      String version,
      Supplier<Database> database,
      Runnable writeClientConfigs,
      Clock clock,
      SessionSettings sessionSettings,
      Supplier<Budgets> budgets,
      List<Backend> backends,
      Supplier<WaitSettings> waitSettings,
      AllowlistCheck allowlists,
      Supplier<Optional<SettingsProblem>> settingsProblem,
      UiSettings ui,
      Supplier<SubagentRoles> subagentRoles,
      TeamSettings team,
      SlackSettings slack,
      FeishuSettings feishu) {
    public Options {
      Objects.requireNonNull(home, "home");
      env = Map.copyOf(env);
      Objects.requireNonNull(server, "server");
      Objects.requireNonNull(devices, "devices");
      Objects.requireNonNull(version, "version");
      Objects.requireNonNull(database, "database");
      Objects.requireNonNull(writeClientConfigs, "writeClientConfigs");
      Objects.requireNonNull(clock, "clock");
      Objects.requireNonNull(sessionSettings, "sessionSettings");
      Objects.requireNonNull(budgets, "budgets");
      backends = List.copyOf(backends);
      Objects.requireNonNull(waitSettings, "waitSettings");
      Objects.requireNonNull(allowlists, "allowlists");
      Objects.requireNonNull(settingsProblem, "settingsProblem");
      Objects.requireNonNull(ui, "ui");
      Objects.requireNonNull(subagentRoles, "subagentRoles");
      Objects.requireNonNull(team, "team");
      Objects.requireNonNull(slack, "slack");
      Objects.requireNonNull(feishu, "feishu");
    }

    /**
     * Options without the workbench's connector, whose subagent roles are the built-in ones and
     * {@code config/agents/}' files.
     */
    public Options(
        CortexHome home,
        Map<String, String> env,
        ServerSettings server,
        DeviceSettings devices,
        String version,
        Supplier<Database> database,
        Runnable writeClientConfigs,
        Clock clock,
        SessionSettings sessionSettings,
        Supplier<Budgets> budgets,
        List<Backend> backends,
        Supplier<WaitSettings> waitSettings,
        AllowlistCheck allowlists,
        Supplier<Optional<SettingsProblem>> settingsProblem) {
      this(
          home,
          env,
          server,
          devices,
          version,
          database,
          writeClientConfigs,
          clock,
          sessionSettings,
          budgets,
          backends,
          waitSettings,
          allowlists,
          settingsProblem,
          UiSettings.DISABLED,
          () -> SubagentRoles.load(home.configDir()),
          TeamSettings.OFF,
          SlackSettings.OFF,
          FeishuSettings.OFF);
    }

    boolean immutable() {
      return "1".equals(env.get("CORTEX_CONFIG_IMMUTABLE"));
    }
  }

  private Daemon(
      Options options,
      DeviceHub hub,
      MachineRegistry registry,
      HttpHost http,
      ScheduledExecutorService sweeper,
      SessionService sessions,
      InteractionService interactions,
      Path serverFile) {
    this.options = options;
    this.interactions = interactions;
    this.hub = hub;
    this.registry = registry;
    this.http = http;
    this.sweeper = sweeper;
    this.sessions = sessions;
    this.serverFile = serverFile;
  }

  /**
   * Starts the server.
   *
   * @throws StartupException when a setting, the token, the registry or a port is wrong, or another
   *     server runs on the home
   */
  public static Daemon start(Options options) {
    HomeLock lock = HomeLock.take(options.home().dataDir());
    try {
      Daemon daemon = startHolding(options);
      daemon.lock = lock;
      return daemon;
    } catch (RuntimeException | Error e) {
      lock.close();
      throw e;
    }
  }

  /** Starts the server once it holds the home's lock. */
  private static Daemon startHolding(Options options) {
    ServerSettings server = options.server();
    if (!HttpHost.isLoopback(server.webhookBind())) {
      throw new StartupException(
          "The webhook must listen on a loopback address, not " + server.webhookBind() + ".");
    }
    String token = WebhookToken.resolve(options.home(), options.env(), options.immutable());
    String shared = options.env().get("CORTEX_CLIENT_TOKEN");
    if (shared != null && shared.strip().length() < WebhookToken.MIN_LENGTH) {
      throw new StartupException(
          "CORTEX_CLIENT_TOKEN must be at least " + WebhookToken.MIN_LENGTH + " characters.");
    }
    MachineRegistry registry = new MachineRegistry(options.home().root().resolve(Machines.FILE));
    DeviceHub hub = new DeviceHub(registry, options.clock(), options.devices());
    registry.onReload(hub::reconcile);
    DeviceCredentials credentials = new DeviceCredentials(options.database(), options.clock());
    HubRoutes hubRoutes =
        new HubRoutes(
            hub,
            credentials,
            shared == null ? null : shared.strip(),
            options.version(),
            HubHosts.of(server.hubBind(), server.hubHostnames()));
    WebhookRoutes webhook =
        new WebhookRoutes(
            hub, options.version(), options.clock().instant(), options.settingsProblem());
    java.util.concurrent.atomic.AtomicInteger boundWebhook =
        new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger boundHub =
        new java.util.concurrent.atomic.AtomicInteger();
    Map<String, Backend> backends = new java.util.LinkedHashMap<>();
    options.backends().forEach(b -> backends.put(b.name(), b));
    Executions executions = new Executions(options.database(), options.clock());
    Costs costs = new Costs(options.database(), options.clock());
    SessionEnvironment environment =
        new SessionEnvironment(
            options.home(), options.env(), token, boundWebhook::get, options.team());
    environment.plugins(
        new SessionPlugins(options.home(), options.database(), environment::launcher)::of);
    SessionService sessions =
        new SessionService(
            new SessionStore(
                options.database(),
                options.clock(),
                secrets(token, shared, platformSecrets(options))),
            executions,
            costs,
            backends,
            environment,
            options.budgets(),
            options.sessionSettings(),
            ModelPrices.shipped(),
            options.clock(),
            options.allowlists());
    InteractionService interactions =
        new InteractionService(
            options.database(), sessions, InteractionService.ttl(options.env()), options.clock());
    SessionRoutes sessionRoutes =
        new SessionRoutes(
            sessions,
            options.version(),
            options.sessionSettings().maxTurn().plusMinutes(5),
            new SessionRoutes.PersonWait() {
              @Override
              public String waitingFor(String sessionId) {
                return interactions.waitingFor(sessionId);
              }

              @Override
              public boolean planning(String sessionId) {
                return interactions.planning(sessionId);
              }
            });
    Waitpoints waitpoints =
        new Waitpoints(
            options.database(),
            new SessionWaker(sessions),
            options.waitSettings(),
            options.clock());
    hub.signals(new DeviceSignals(waitpoints));
    WaitRoutes waitRoutes =
        new WaitRoutes(
            waitpoints,
            options.version(),
            () -> registry.current().machines().keySet(),
            name -> {
              HubMessage.Hello hello = hub.lastHello(name);
              return new Recipes.Device(
                  name,
                  hello == null ? null : hello.launcher(),
                  hello == null ? null : hello.home());
            },
            () -> options.env().getOrDefault("CORTEX_LAUNCHER", "cortex"),
            options.home().root().toString(),
            boundWebhook::get,
            options.clock());
    SubagentService subagents =
        new SubagentService(
            options.database(),
            sessions,
            executions,
            costs,
            options.budgets(),
            options.allowlists(),
            options.subagentRoles(),
            options.env(),
            options.clock());
    TeamService team =
        new TeamService(
            options.database(),
            sessions,
            executions,
            costs,
            options.budgets(),
            interactions,
            options.team(),
            options.clock());
    SpoolDrain spool =
        new SpoolDrain(
            new Spool(options.home().root().resolve(Spool.DIR)), waitpoints, Clock.systemUTC());

    // Before any route or the hub can take a message: a turn started by one would otherwise have
    // its offers reset and its session marked interrupted by the recovery.
    sessions.recover();
    subagents.recover();
    subagents.listen();
    team.start();
    team.recover();
    dev.cortex.server.schedules.Scheduler scheduler =
        new dev.cortex.server.schedules.Scheduler(
            options.database().get(),
            options.clock(),
            ScheduleRoutes.launcher(sessions),
            ScheduleRoutes.checkEnvironment(options.env()));
    // Loaded before any route can add one (the start later takes up fires claimed before).
    scheduler.load();
    sessions.followAll(
        (sessionId, update) -> {
          if (update instanceof SessionService.Update.TurnEnded ended) {
            scheduler.turnEnded(
                sessionId,
                ended.executionId(),
                ended.status().name().toLowerCase(java.util.Locale.ROOT));
          }
        });
    SlackChannel slack = slack(options, sessions, interactions);
    FeishuChannel feishu = feishu(options, sessions, interactions);
    interactions.onChange(
        change -> {
          if (!change.state().equals(dev.cortex.protocol.session.Interactions.OPEN)) {
            return;
          }
          dev.cortex.server.sessions.store.Session session;
          try {
            session = sessions.get(change.session());
          } catch (dev.cortex.server.sessions.SessionException e) {
            return;
          }
          if (slack != null && session.channelKind().equals(SlackChannel.KIND)) {
            slack.postInteraction(session, interactions.show(change.id()));
          } else if (feishu != null && session.channelKind().equals(FeishuChannel.KIND)) {
            feishu.postInteraction(session, interactions.show(change.id()));
          }
        });
    AtomicReference<RequestGuard> webhookGuard = new AtomicReference<>();
    AtomicReference<RequestGuard> healthGuard = new AtomicReference<>();
    AtomicReference<RequestGuard> signalGuard = new AtomicReference<>();
    HttpHost.Builder builder =
        HttpHost.builder("cortex-server")
            .connector(
                WEBHOOK,
                server.webhookBind(),
                server.webhookPort(),
                null,
                Webhook.INFRASTRUCTURE_DEADLINE.plusSeconds(30))
            .connector(HUB, server.hubBind(), server.hubPort(), tls(server, options.env()))
            .ownThreads(HUB, HUB_THREADS)
            .route(WEBHOOK, Webhook.HEALTH, new GuardedHandler(healthGuard::get, webhook.health()))
            .route(
                WEBHOOK,
                Webhook.REMOTE_COMMAND,
                new GuardedHandler(webhookGuard::get, webhook.remoteCommand()))
            .route(
                WEBHOOK,
                Webhook.REMOTE_CANCEL,
                new GuardedHandler(webhookGuard::get, webhook.remoteCancel()))
            .route(
                WEBHOOK, Webhook.DEVICES, new GuardedHandler(webhookGuard::get, webhook.devices()))
            .route(
                WEBHOOK,
                Webhook.DEVICE_REVOKED,
                new GuardedHandler(webhookGuard::get, webhook.deviceRevoked()))
            .route(
                WEBHOOK,
                Webhook.DEVICE_REGISTERED,
                new GuardedHandler(
                    webhookGuard::get,
                    webhook.deviceRegistered(
                        name -> registry.readNow(name) != null,
                        () -> server.hubUrl(boundHub.get()))))
            .route(HUB, Hub.ENROL_PATH, hubRoutes.enrol())
            .route(HUB, Hub.PATH, hubRoutes::websocket);
    builder.route(
        WEBHOOK, Signals.ROUTE, new GuardedHandler(signalGuard::get, waitRoutes.signal()));
    waitRoutes
        .handlers()
        .forEach(
            (route, handler) ->
                builder.route(WEBHOOK, route, new GuardedHandler(webhookGuard::get, handler)));
    new InteractionRoutes(interactions, options.version())
        .handlers()
        .forEach(
            (route, handler) ->
                builder.route(WEBHOOK, route, new GuardedHandler(webhookGuard::get, handler)));
    new SubagentRoutes(subagents, options.version())
        .handlers()
        .forEach(
            (route, handler) ->
                builder.route(WEBHOOK, route, new GuardedHandler(webhookGuard::get, handler)));
    new TeamRoutes(team, options.version())
        .handlers()
        .forEach(
            (route, handler) ->
                builder.route(WEBHOOK, route, new GuardedHandler(webhookGuard::get, handler)));
    sessionRoutes
        .handlers()
        .forEach(
            (route, handler) ->
                builder.route(WEBHOOK, route, new GuardedHandler(webhookGuard::get, handler)));
    // The web group: its tools' routes and its API on the webhook (the workbench mounts the API
    // and the GET routes of files and views on its own connector).
    WebService web =
        new WebService(
            options.database(),
            sessions,
            options.home().root().resolve("workspace"),
            options.clock(),
            new DeviceFileReader(hub));
    WebRoutes webRoutes = new WebRoutes(web, sessions, sessionRoutes::view, options.version());
    if ("1".equals(options.env().get("CORTEX_TEST_WEB_SESSIONS"))) {
      sessionRoutes.allowWebSessions();
    }
    java.util.Map<String, org.eclipse.jetty.server.Handler> webHandlers =
        new java.util.LinkedHashMap<>(webRoutes.handlers());
    webHandlers.putAll(webRoutes.apiHandlers());
    PluginRoutes pluginRoutes =
        new PluginRoutes(
            options.home(), options.database(), options.env(), options.clock(), options.version());
    webHandlers.putAll(pluginRoutes.handlers("session-api"));
    ChatFiles chatFiles =
        new ChatFiles(new DeviceFileReader(hub), options.home().root().resolve("tmp"));
    SlackRoutes slackRoutes = new SlackRoutes(sessions, () -> slack, chatFiles, options.version());
    webHandlers.putAll(slackRoutes.handlers());
    builder.route(WEBHOOK, SlackRoutes.EVENTS, slackRoutes.events());
    FeishuRoutes feishuRoutes =
        new FeishuRoutes(sessions, () -> feishu, chatFiles, options.version());
    webHandlers.putAll(feishuRoutes.handlers());
    ScheduleRoutes scheduleRoutes =
        new ScheduleRoutes(scheduler, sessions, options.clock(), options.version());
    webHandlers.putAll(scheduleRoutes.handlers());
    webHandlers.putAll(scheduleRoutes.callbackHandlers());
    builder.route(WEBHOOK, FeishuRoutes.EVENTS, feishuRoutes.events());
    webHandlers.forEach(
        (route, handler) ->
            builder.route(WEBHOOK, route, new GuardedHandler(webhookGuard::get, handler)));
    // The workbench: its own connector, nothing of the webhook's on it.
    UiSettings ui = options.ui();
    AtomicReference<RequestGuard> uiGuard = new AtomicReference<>();
    java.util.concurrent.atomic.AtomicInteger boundUi =
        new java.util.concurrent.atomic.AtomicInteger();
    Signins signins = new Signins(options.database(), options.clock(), ui.session());
    EventJournal journal = new EventJournal(options.database(), options.clock());
    UiEvents uiEvents = new UiEvents(journal, Duration.ofSeconds(15));
    sessions.followAll(
        (sessionId, update) -> {
          journalUpdate(journal, sessionId, update);
          if (update instanceof SessionService.Update.TurnEnded
              || (update instanceof SessionService.Update.Entry
                  && ((SessionService.Update.Entry) update).entry().kind()
                      == Transcript.Kind.TOOL_RESULT)) {
            try {
              web.sessionActed(sessionId);
            } catch (RuntimeException e) {
              log.debug("the board of {} was not checked: {}", sessionId, e.toString());
            }
          }
          // The session was created, or a turn started or ended: its state changed.
          if (update instanceof SessionService.Update.Created
              || update instanceof SessionService.Update.Delivered
              || update instanceof SessionService.Update.TurnEnded) {
            journalState(journal, sessions, sessionRoutes, sessionId);
          }
        });
    interactions.onSessionState(
        sessionId -> journalState(journal, sessions, sessionRoutes, sessionId));
    web.onChange(
        change -> {
          Map<String, Object> data = new LinkedHashMap<>();
          data.put("session", change.session());
          data.put(WebChange.DECISION.equals(change.kind()) ? "attachment" : "board", change.id());
          journal.publish(change.kind(), change.session(), data);
        });
    interactions.onChange(
        change ->
            journal.publish(
                "interaction",
                change.session(),
                Map.of(
                    "session", change.session(),
                    "id", change.id(),
                    "kind", change.kind(),
                    "status", change.state())));
    UiRoutes uiRoutes =
        new UiRoutes(
            signins,
            ui,
            () -> ui.url(boundUi.get()),
            options.version(),
            options.clock(),
            UiRoutes.Sleeper.REAL);
    uiRoutes
        .webhookHandlers()
        .forEach(
            (route, handler) ->
                builder.route(WEBHOOK, route, new GuardedHandler(webhookGuard::get, handler)));
    if (ui.enabled()) {
      builder.connector(UI, ui.bind(), ui.port(), uiTls(ui, options.env()));
      Map<String, org.eclipse.jetty.server.Handler> uiHandlers =
          new LinkedHashMap<>(uiRoutes.uiHandlers());
      uiHandlers.put(UiEvents.ROUTE, uiEvents);
      sessionRoutes.forWorkbench().handlers().forEach(uiHandlers::put);
      uiHandlers.putAll(
          new InteractionRoutes(interactions, options.version())
              .workbenchHandlers(options.version()));
      uiHandlers.putAll(webRoutes.apiHandlers());
      uiHandlers.putAll(webRoutes.uiHandlers());
      uiHandlers.putAll(pluginRoutes.handlers("workbench"));
      uiHandlers.putAll(
          new UiReadRoutes(
                  sessions,
                  executions,
                  hub,
                  registry,
                  sessionRoutes::view,
                  new CostReport(costs, options.budgets(), options.clock()),
                  waitpoints,
                  options.version())
              .handlers());
      uiHandlers.forEach(
          (route, handler) ->
              builder.route(
                  UI,
                  route,
                  new UiGuard(uiGuard::get, () -> ui.url(boundUi.get()), signins, handler)));
      builder.route(
          UI,
          "/*",
          new UiGuard(uiGuard::get, () -> ui.url(boundUi.get()), signins, new UiAssets()));
    }
    HttpHost http = builder.start();
    if (ui.enabled()) {
      int uiPort = http.port(UI);
      boundUi.set(uiPort);
      java.util.Set<String> uiHosts = RequestGuard.hostsFor(ui.bind(), uiPort);
      uiGuard.set(
          RequestGuard.builder()
              .hosts(uiHosts)
              .origins(java.util.Set.of(ui.url(uiPort).toLowerCase(java.util.Locale.ROOT)))
              .build());
    }
    int webhookPort = http.port(WEBHOOK);
    boundWebhook.set(webhookPort);
    int hubPort = http.port(HUB);
    boundHub.set(hubPort);
    java.util.Set<String> webhookHosts = RequestGuard.hostsFor(server.webhookBind(), webhookPort);
    webhookGuard.set(
        RequestGuard.builder()
            .hosts(webhookHosts)
            .token(
                RequestGuard.TokenHeader.raw(Webhook.TOKEN_HEADER),
                RequestGuard.TokenCheck.equalTo(token))
            .build());
    healthGuard.set(
        RequestGuard.builder()
            .hosts(webhookHosts)
            .origins(RequestGuard.originsFor(webhookHosts))
            .build());
    // Signals carry the waitpoint's secret instead of the token; browsers' pages may not send them.
    signalGuard.set(
        RequestGuard.builder()
            .hosts(webhookHosts)
            .origins(RequestGuard.originsFor(webhookHosts))
            .build());

    ScheduledExecutorService sweeper =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "cortex-server-sweeper");
              thread.setDaemon(true);
              return thread;
            });
    Housekeeping housekeeping =
        new Housekeeping(
            List.of(
                new Housekeeping.Step("turns past max_turn", sessions::sweep),
                new Housekeeping.Step("silent devices", hub::evictSilent),
                new Housekeeping.Step("ungreeted connections", hubRoutes::sweep),
                new Housekeeping.Step("waitpoints", waitpoints::sweep),
                new Housekeeping.Step("interactions", interactions::sweep),
                new Housekeeping.Step("subagents' results", subagents::sweep),
                new Housekeeping.Step("workbench sessions", signins::sweep),
                new Housekeeping.Step("the workbench's event journal", journal::sweep),
                new Housekeeping.Step("the spool", spool::drain),
                new Housekeeping.Step(Machines.FILE, registry::reloadIfChanged)));
    sweeper.scheduleWithFixedDelay(housekeeping, 1, 1, TimeUnit.SECONDS);

    Path serverFile = options.home().dataDir().resolve(Webhook.SERVER_FILE);
    Daemon daemon =
        new Daemon(options, hub, registry, http, sweeper, sessions, interactions, serverFile);
    daemon.uiEvents = uiEvents;
    daemon.subagents = subagents;
    daemon.team = team;
    if (!options.immutable()) {
      options.writeClientConfigs().run();
    }
    sessions.startQueued();
    waitpoints.recover();
    spool.drain();
    if (slack != null) {
      daemon.slack = slack;
      slack.start();
    }
    if (feishu != null) {
      daemon.feishu = feishu;
      feishu.start();
    }
    daemon.scheduler = scheduler;
    scheduler.start();
    // Last: the server file says the server is ready.
    daemon.describeItself(webhookPort, hubPort, ui.enabled() ? boundUi.get() : 0);
    if (!HttpHost.isLoopback(server.hubBind()) && server.hubKeystore() == null) {
      log.warn(
          "the device hub listens on {} without TLS: credentials cross the network in the clear;"
              + " set [server] hub_keystore, or use a VPN or tunnel",
          server.hubBind());
    }
    log.info(
        "agent server {} up: webhook http://{}:{} , hub {}://{}:{}{} (devices connect to {})",
        options.version(),
        server.webhookBind(),
        webhookPort,
        server.hubKeystore() == null ? "ws" : "wss",
        server.hubBind(),
        hubPort,
        Hub.PATH,
        server.hubUrl(hubPort));
    return daemon;
  }

  /**
   * The Slack front door when {@code [slack]} enables it and its tokens are there (the environment
   * or the secrets file); else null, with the reason in the log. It starts once the server is up.
   */
  private static SlackChannel slack(
      Options options, SessionService sessions, InteractionService interactions) {
    SlackSettings settings = options.slack();
    if (!settings.enabled()) {
      return null;
    }
    dev.cortex.models.ApiKeys secrets =
        new dev.cortex.models.ApiKeys(options.home(), options.env());
    java.util.function.Consumer<String> missing =
        problem -> log.warn("[slack] is enabled but Slack is not started: {}", problem);
    String bot = secrets.secret("SLACK_BOT_TOKEN", missing);
    String second =
        bot == null
            ? null
            : secrets.secret(
                settings.events() ? "SLACK_SIGNING_SECRET" : "SLACK_APP_TOKEN", missing);
    if (bot == null || second == null) {
      return null;
    }
    FrontDoor door =
        frontDoor(
            SlackChannel.KIND,
            sessions,
            interactions,
            settings.project(),
            settings.backend(),
            settings.program(),
            settings.workingDirectory());
    return new SlackChannel(
        settings,
        bot,
        settings.events() ? null : second,
        settings.events() ? second : null,
        door,
        options.clock());
  }

  /**
   * The Feishu front door when {@code [feishu]} enables it and the app's credentials are there (the
   * environment or the secrets file); else null, with the reason in the log. It starts once the
   * server is up.
   */
  private static FeishuChannel feishu(
      Options options, SessionService sessions, InteractionService interactions) {
    FeishuSettings settings = options.feishu();
    if (!settings.enabled()) {
      return null;
    }
    dev.cortex.models.ApiKeys secrets =
        new dev.cortex.models.ApiKeys(options.home(), options.env());
    List<String> problems = new java.util.ArrayList<>();
    String appId = secrets.secret("FEISHU_APP_ID", problems::add);
    String appSecret = secrets.secret("FEISHU_APP_SECRET", problems::add);
    String verification = secrets.secret("FEISHU_VERIFICATION_TOKEN", problems::add);
    if (appId == null || appSecret == null || verification == null) {
      problems.forEach(
          problem -> log.warn("[feishu] is enabled but Feishu is not started: {}", problem));
      return null;
    }
    // Optional: only an event subscription that encrypts has one.
    String encryptKey = secrets.secret("FEISHU_ENCRYPT_KEY", problem -> {});
    FrontDoor door =
        frontDoor(
            FeishuChannel.KIND,
            sessions,
            interactions,
            settings.project(),
            settings.backend(),
            settings.program(),
            settings.workingDirectory());
    java.util.List<String> held = new java.util.ArrayList<>(List.of(appSecret, verification));
    if (encryptKey != null) {
      held.add(encryptKey);
    }
    return new FeishuChannel(
        settings,
        new FeishuApi(settings.apiUrl(), appId, appSecret, options.clock()),
        verification,
        encryptKey,
        door,
        options.clock(),
        held);
  }

  /**
   * What a chat platform's front door shares: new sessions made as a person's, direct, with the
   * platform's table's project, backend, program and working directory; answers to the agent
   * server's questions and plans recorded as given through the platform.
   */
  private static FrontDoor frontDoor(
      String kind,
      SessionService sessions,
      InteractionService interactions,
      String project,
      String backend,
      List<String> program,
      Path workingDirectory) {
    FrontDoor.Answers answers =
        new FrontDoor.Answers() {
          @Override
          public dev.cortex.protocol.session.Interactions.View show(String id) {
            try {
              return interactions.show(id);
            } catch (dev.cortex.base.CodedException e) {
              return null;
            }
          }

          @Override
          public String answer(
              String id,
              List<dev.cortex.protocol.session.Interactions.QuestionAnswer> given,
              Boolean approve,
              String feedback,
              String by,
              String via) {
            try {
              interactions.answer(
                  new dev.cortex.protocol.session.Interactions.Answer(
                      id, given, approve, feedback, by, via));
              return null;
            } catch (dev.cortex.base.CodedException
                | dev.cortex.protocol.session.Sessions.BadRequest e) {
              return e.getMessage();
            }
          }
        };
    return new FrontDoor(
        kind,
        sessions,
        (name, channel) ->
            sessions.createFromFrontDoor(
                new SessionService.NewSession(
                    name,
                    channel,
                    project,
                    backend,
                    null,
                    null,
                    null,
                    dev.cortex.server.sessions.store.Session.Composition.DIRECT,
                    dev.cortex.server.sessions.store.Session.StartedBy.PERSON,
                    program,
                    workingDirectory,
                    null)),
        answers);
  }

  /**
   * What a session's transcript never keeps: waitpoint secrets and device credentials (by their
   * form, which every redactor knows), the webhook token and the shared device token (by their
   * values), and what a tool marks secret.
   */
  private static Redactor secrets(
      String webhookToken, String sharedToken, List<String> platformSecrets) {
    Redactor.Builder redactor = Redactor.builder().value(webhookToken).value(sharedToken);
    platformSecrets.forEach(redactor::value);
    return redactor.build();
  }

  /** The chat platforms' tokens this server has (environment or secrets file), to redact. */
  private static List<String> platformSecrets(Options options) {
    dev.cortex.models.ApiKeys keys = new dev.cortex.models.ApiKeys(options.home(), options.env());
    List<String> found = new java.util.ArrayList<>();
    for (String name :
        List.of(
            "SLACK_BOT_TOKEN",
            "SLACK_APP_TOKEN",
            "SLACK_SIGNING_SECRET",
            "FEISHU_APP_SECRET",
            "FEISHU_VERIFICATION_TOKEN",
            "FEISHU_ENCRYPT_KEY")) {
      String value = keys.secret(name, problem -> {});
      if (value != null) {
        found.add(value);
      }
    }
    return found;
  }

  private static SslContextFactory.Server tls(ServerSettings server, Map<String, String> env) {
    if (server.hubKeystore() == null) {
      return null;
    }
    return keystore(
        "[server] hub_keystore", server.hubKeystore(), server.hubKeystorePasswordEnv(), env);
  }

  /** TLS from a PKCS12 keystore whose password is in the variable {@code passwordEnv}. */
  private static SslContextFactory.Server keystore(
      String setting, Path keystore, String passwordEnv, Map<String, String> env) {
    String password = env.get(passwordEnv);
    if (password == null) {
      throw new StartupException(
          setting + " is set, but " + passwordEnv + " (the keystore's password) is not.");
    }
    SslContextFactory.Server tls = new SslContextFactory.Server();
    tls.setKeyStorePath(keystore.toString());
    tls.setKeyStoreType("PKCS12");
    tls.setKeyStorePassword(password);
    return tls;
  }

  private void describeItself(int webhookPort, int hubPort, int uiPort) {
    Map<String, Object> self = new LinkedHashMap<>();
    self.put("pid", ProcessHandle.current().pid());
    self.put("version", options.version());
    self.put("webhook_port", webhookPort);
    self.put("hub_port", hubPort);
    self.put("hub_url", options.server().hubUrl(hubPort));
    if (uiPort > 0) {
      self.put("ui_port", uiPort);
      self.put("ui_url", options.ui().url(uiPort));
    }
    self.put("webhook_protocol", Webhook.PROTOCOL);
    self.put("hub_protocol", Hub.VERSION);
    self.put("started_at", Instant.now(options.clock()).toString());
    CortexHome.writeAtomically(serverFile, Json.writePretty(self) + "\n");
  }

  /**
   * The URL devices connect to, as the server running on {@code home} recorded it in {@code
   * data/server.json}; empty when no server runs there (or it wrote no URL).
   */
  public static Optional<String> runningHubUrl(CortexHome home) {
    Path file = home.dataDir().resolve(Webhook.SERVER_FILE);
    try {
      JsonNode self = Json.mapper().readTree(Files.readString(file));
      boolean alive =
          ProcessHandle.of(self.path("pid").asLong(-1)).map(ProcessHandle::isAlive).orElse(false);
      return alive && self.path("hub_url").isString()
          ? Optional.of(self.path("hub_url").asString())
          : Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  public int webhookPort() {
    return http.port(WEBHOOK);
  }

  public int hubPort() {
    return http.port(HUB);
  }

  /** Stops gracefully; safe to call more than once and from a shutdown hook. */
  public synchronized void stop() {
    if (stopping) {
      return;
    }
    stopping = true;
    log.info("agent server stopping");
    UiEvents streams = uiEvents;
    if (streams != null) {
      streams.close();
    }
    dev.cortex.server.schedules.Scheduler schedules = scheduler;
    if (schedules != null) {
      schedules.close();
    }
    SlackChannel slackChannel = slack;
    if (slackChannel != null) {
      slackChannel.close();
    }
    FeishuChannel feishuChannel = feishu;
    if (feishuChannel != null) {
      feishuChannel.close();
    }
    interactions.close();
    SubagentService delegated = subagents;
    if (delegated != null) {
      delegated.close();
    }
    TeamService teams = team;
    if (teams != null) {
      teams.close();
    }
    sessions.close();
    hub.shutdown();
    sweeper.shutdownNow();
    try {
      http.stop(options.server().shutdownGrace());
    } catch (RuntimeException e) {
      log.warn("stopping the HTTP server failed", e);
    }
    forgetItself();
    HomeLock held = lock;
    if (held != null) {
      held.close();
    }
    log.info("agent server stopped");
    stopped.countDown();
  }

  /** A session's view, as the workbench's journal keeps it when the session's state changed. */
  private static void journalState(
      EventJournal journal,
      SessionService sessions,
      SessionRoutes sessionRoutes,
      String sessionId) {
    try {
      Map<String, Object> data = new LinkedHashMap<>();
      data.put("session", sessionId);
      data.put("view", sessionRoutes.view(sessions.get(sessionId)));
      journal.publish("session", sessionId, data);
    } catch (SessionException | RuntimeException e) {
      log.debug("the workbench's journal missed a state of {}: {}", sessionId, e.toString());
    }
  }

  /** A session's transcript entry or turn end, as the workbench's journal keeps it. */
  private static void journalUpdate(
      EventJournal journal, String sessionId, SessionService.Update update) {
    try {
      if (update instanceof SessionService.Update.Entry) {
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("session", sessionId);
        data.put("entry", SessionRoutes.entry(((SessionService.Update.Entry) update).entry()));
        journal.publish("entry", sessionId, data);
      } else if (update instanceof SessionService.Update.TurnEnded) {
        SessionService.Update.TurnEnded ended = (SessionService.Update.TurnEnded) update;
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("session", sessionId);
        data.put("execution_id", ended.executionId());
        data.put("status", ended.status().name().toLowerCase(java.util.Locale.ROOT));
        journal.publish("turn", sessionId, data);
      }
    } catch (RuntimeException e) {
      log.warn("the workbench's journal missed an event of {}: {}", sessionId, e.toString());
    }
  }

  /** The workbench's port; 0 when it has none. */
  public int uiPort() {
    return options.ui().enabled() ? http.port(UI) : 0;
  }

  private static SslContextFactory.Server uiTls(UiSettings ui, Map<String, String> env) {
    if (ui.keystore() == null) {
      if (!HttpHost.isLoopback(ui.bind())) {
        throw new StartupException(
            "[ui] bind is "
                + ui.bind()
                + ", not a loopback address, and [ui] keystore is not set: the workbench's"
                + " cookies would cross the network in the clear.");
      }
      return null;
    }
    return keystore("[ui] keystore", ui.keystore(), ui.keystorePasswordEnv(), env);
  }

  private void forgetItself() {
    try {
      if (Files.isRegularFile(serverFile)
          && Files.readString(serverFile).contains("\"pid\" : " + ProcessHandle.current().pid())) {
        Files.delete(serverFile);
      }
    } catch (IOException e) {
      log.debug("cannot remove the server file", e);
    }
  }

  /** Blocks until {@link #stop()} has finished. */
  public void awaitStop() throws InterruptedException {
    stopped.await();
  }

  /** Blocks until stopped or {@code timeout} passed; whether it stopped. */
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    return stopped.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    stop();
  }

  /** The areas of the database this server keeps its state in. */
  public static List<dev.cortex.storage.Area> storageAreas() {
    return List.of(
        DeviceCredentials.area(),
        SessionsSchema.area(),
        WaitpointsSchema.area(),
        InteractionsSchema.area(),
        SubagentsSchema.area(),
        TeamSchema.area(),
        dev.cortex.server.plugins.PluginAssignments.area(),
        Signins.area(),
        WebSchema.area(),
        dev.cortex.server.schedules.SchedulesSchema.area());
  }
}
