package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.CortexHome;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.session.Plugins;
import dev.cortex.server.plugins.Plugin;
import dev.cortex.server.plugins.PluginAssignments;
import dev.cortex.server.plugins.PluginCatalog;
import dev.cortex.server.plugins.PluginMaterials;
import dev.cortex.server.plugins.PluginOffer;
import dev.cortex.storage.Database;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;

/**
 * The plugin routes ({@link Plugins}) on the session API and the workbench: packages and their
 * assignments as summaries, offers (what a plugin would add, each server asked for its tools), and
 * assignments made only from an offer a person confirmed. An offer is kept a short while, at most
 * {@link #MAX_OFFERS} of them; its confirmation assigns exactly what it showed, once.
 */
final class PluginRoutes {
  static final int MAX_OFFERS = 64;
  static final Duration OFFER_LIFETIME = Duration.ofMinutes(15);

  /** How many offers are made at once (each starts or reaches a plugin's servers). */
  static final int MAX_PROBES = 2;

  private final java.util.concurrent.Semaphore probes =
      new java.util.concurrent.Semaphore(MAX_PROBES);

  private final PluginCatalog catalog;
  private final Path dataRoot;
  private final Supplier<Database> database;
  private final Map<String, String> environment;
  private final Clock clock;
  private final JsonRoutes routes;
  private final Map<String, Kept> offers = new LinkedHashMap<>();

  private record Kept(PluginOffer offer, Instant at) {}

  PluginRoutes(
      CortexHome home,
      Supplier<Database> database,
      Map<String, String> environment,
      Clock clock,
      String version) {
    this.catalog = PluginCatalog.of(home);
    this.dataRoot = home.dataDir().resolve(PluginMaterials.DATA_DIR);
    this.database = database;
    this.environment = Map.copyOf(environment);
    this.clock = clock;
    this.routes = new JsonRoutes(version);
  }

  /** The handlers by route; assignments made through them say {@code confirmedBy}. */
  Map<String, Handler> handlers(String confirmedBy) {
    Map<String, Handler> handlers = new LinkedHashMap<>();
    handlers.put(
        Plugins.LIST,
        routes.coded(
            Plugins.Nothing.class, Plugins.Nothing.USAGE, none -> list(), PluginRoutes::status));
    handlers.put(
        Plugins.SHOW,
        routes.coded(Plugins.Ref.class, Plugins.Ref.USAGE, this::show, PluginRoutes::status));
    handlers.put(
        Plugins.OFFER,
        routes.coded(Plugins.Ref.class, Plugins.Ref.USAGE, this::offer, PluginRoutes::status));
    handlers.put(
        Plugins.ASSIGN,
        routes.coded(
            Plugins.Assign.class,
            Plugins.Assign.USAGE,
            assign -> assign(assign, confirmedBy),
            PluginRoutes::status));
    handlers.put(
        Plugins.UNASSIGN,
        routes.coded(Plugins.Ref.class, Plugins.Ref.USAGE, this::unassign, PluginRoutes::status));
    return handlers;
  }

  static int status(String code) {
    switch (code) {
      case Plugins.Codes.NOT_FOUND:
        return 404;
      case Plugins.Codes.CONFIRMATION_NEEDED:
      case Plugins.Codes.CONFIRMATION_STALE:
        return 409;
      case Plugins.Codes.PLUGIN_UNUSABLE:
      case Plugins.Codes.PLUGIN_SERVER_FAILED:
        return 422;
      case ErrorCodes.UNAVAILABLE:
        return 503;
      default:
        return 400;
    }
  }

  private Object list() {
    List<Plugin> plugins;
    try {
      plugins = catalog.list();
    } catch (IOException e) {
      throw new CodedException(ErrorCodes.UNAVAILABLE, "The plugins folder cannot be read.");
    }
    return Map.of(
        "plugins",
        plugins.stream().map(Plugin::view).toList(),
        "assignments",
        PluginAssignments.views(database.get().read(PluginAssignments::all), catalog));
  }

  private Object show(Plugins.Ref ref) {
    Plugin plugin = plugin(ref.id());
    List<PluginAssignments.View> assigned =
        PluginAssignments.views(database.get().read(PluginAssignments::all), catalog).stream()
            .filter(a -> a.pluginId().equals(plugin.id()))
            .toList();
    return Map.of("plugin", plugin.view(), "assignments", assigned);
  }

  private Plugin plugin(String id) {
    return catalog
        .get(id)
        .orElseThrow(() -> new CodedException(Plugins.Codes.NOT_FOUND, "No plugin '" + id + "'."));
  }

  private Plugin usable(String id) {
    Plugin plugin = plugin(id);
    if (!plugin.usable()) {
      throw new CodedException(
          Plugins.Codes.PLUGIN_UNUSABLE,
          id
              + " cannot be used: "
              + plugin.problems().get(0).component()
              + ": "
              + plugin.problems().get(0).reason()
              + ".");
    }
    return plugin;
  }

  private PluginOffer offer(Plugins.Ref ref) {
    Plugin plugin = usable(ref.id());
    PluginOffer offer = make(plugin, PluginAssignments.environmentOf(ref.project()));
    if (offer.needsConfirmation()) {
      keep(offer);
    }
    return offer;
  }

  private PluginOffer make(Plugin plugin, String environment) {
    if (!probes.tryAcquire()) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "Other offers are being made (at most "
              + MAX_PROBES
              + " at once): try again in a moment.");
    }
    try {
      return PluginOffer.make(plugin, environment, dataRoot, this.environment);
    } catch (PluginOffer.ProbeFailure e) {
      throw new CodedException(Plugins.Codes.PLUGIN_SERVER_FAILED, e.getMessage());
    } finally {
      probes.release();
    }
  }

  private synchronized void keep(PluginOffer offer) {
    Instant now = clock.instant();
    offers.values().removeIf(k -> k.at().plus(OFFER_LIFETIME).isBefore(now));
    offers.remove(offer.confirmation());
    while (offers.size() >= MAX_OFFERS) {
      offers.remove(offers.keySet().iterator().next());
    }
    offers.put(offer.confirmation(), new Kept(offer, now));
  }

  private synchronized PluginOffer take(String confirmation) {
    Kept kept = offers.remove(confirmation);
    if (kept == null || kept.at().plus(OFFER_LIFETIME).isBefore(clock.instant())) {
      return null;
    }
    return kept.offer();
  }

  private Object assign(Plugins.Assign request, String confirmedBy) {
    Plugin plugin = usable(request.id());
    String environment = PluginAssignments.environmentOf(request.project());
    PluginOffer offer;
    if (plugin.servers().isEmpty()) {
      offer = make(plugin, environment);
    } else {
      if (request.confirmation() == null) {
        throw new CodedException(
            Plugins.Codes.CONFIRMATION_NEEDED,
            plugin.id()
                + " adds MCP servers: get an offer ("
                + Plugins.OFFER
                + "), show it to a person, and send its confirmation once they accept it."
                + " Nothing was assigned.");
      }
      offer = take(request.confirmation());
      if (offer == null
          || !offer.pluginId().equals(plugin.id())
          || !offer.environment().equals(environment)
          || !java.util.Objects.equals(offer.mcpHash(), plugin.mcpHash())) {
        throw new CodedException(
            Plugins.Codes.CONFIRMATION_STALE,
            "That confirmation names no current offer of "
                + plugin.id()
                + " for "
                + PluginOffer.where(environment)
                + " (offers last "
                + OFFER_LIFETIME.toMinutes()
                + " minutes, and the package may have changed): get a new offer. Nothing was"
                + " assigned.");
      }
    }
    PluginAssignments.Assignment assignment = offer.assignment(confirmedBy, clock.instant());
    database
        .get()
        .write(
            c -> {
              PluginAssignments.put(c, assignment);
              return null;
            });
    return Map.of("assigned", PluginAssignments.views(List.of(assignment), catalog).get(0));
  }

  private Object unassign(Plugins.Ref ref) {
    String environment = PluginAssignments.environmentOf(ref.project());
    boolean removed = database.get().write(c -> PluginAssignments.remove(c, ref.id(), environment));
    if (!removed) {
      throw new CodedException(
          Plugins.Codes.NOT_FOUND,
          ref.id() + " is not assigned to " + PluginOffer.where(environment) + ".");
    }
    return Map.of("unassigned", Map.of("plugin_id", ref.id(), "environment", environment));
  }
}
