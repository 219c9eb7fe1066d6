package dev.cortex.server.loop;

import dev.cortex.base.CortexHome;
import dev.cortex.models.ApiKeys;
import dev.cortex.models.ModelCalls;
import dev.cortex.models.ModelCatalog;
import dev.cortex.models.ModelClient;
import dev.cortex.models.ModelFailure;
import dev.cortex.models.ModelProvider;
import dev.cortex.models.ModelSpec;
import dev.cortex.models.Thinking;
import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.backend.BackendException;
import dev.cortex.server.sessions.backend.RunningTurn;
import dev.cortex.server.sessions.backend.TurnRequest;
import java.time.Clock;
import java.time.LocalDate;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The {@code api} backend: Cortex's own agent loop, in the agent server, on any model of {@code
 * cortex models list} — the Anthropic Messages API, any OpenAI-compatible API, local servers. The
 * session's bundled MCP server runs in this process ({@link SessionServers}); its tools keep their
 * plain names, and {@code agent}/{@code agent_stop} are never offered.
 */
public final class ApiBackend implements Backend {
  public static final String NAME = "api";

  private final CortexHome home;
  private final Map<String, String> serverEnvironment;
  private final Supplier<ModelCatalog> catalog;
  private final ModelClient client;
  private final SessionServers servers;
  private final ModelCalls.RetryPolicy retries;
  private final ModelCalls.Sleeper sleeper;
  private final Clock clock;
  private final Conversations conversations;

  /**
   * @param serverEnvironment the agent server's own environment, where API keys are looked up at
   *     session create (each turn looks them up in its session's environment)
   * @param catalog the models and providers of the current settings
   */
  public ApiBackend(
      CortexHome home,
      Map<String, String> serverEnvironment,
      Supplier<ModelCatalog> catalog,
      ModelClient client,
      SessionServers servers,
      ModelCalls.RetryPolicy retries,
      ModelCalls.Sleeper sleeper,
      Clock clock) {
    this.home = Objects.requireNonNull(home, "home");
    this.serverEnvironment = Map.copyOf(serverEnvironment);
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.client = Objects.requireNonNull(client, "client");
    this.servers = Objects.requireNonNull(servers, "servers");
    this.retries = Objects.requireNonNull(retries, "retries");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.conversations = new Conversations(home.dataDir().resolve("conversations"));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String defaultModel() {
    return catalog.get().defaultModel();
  }

  @Override
  public String provider(String model) {
    return spec(model).map(ModelSpec::provider).orElse(null);
  }

  @Override
  public String refusal(String model, String thinking) {
    ModelCatalog models = catalog.get();
    Optional<ModelSpec> spec = spec(model);
    if (spec.isEmpty()) {
      return "Unknown model '"
          + model
          + "' for the api backend. Known: "
          + String.join(", ", models.models().stream().map(ModelSpec::name).toList())
          + " ('cortex models list'; add models in cortex.toml's [models]).";
    }
    ModelProvider provider = models.provider(spec.get().provider());
    try {
      new ApiKeys(home, serverEnvironment).require(provider);
      return null;
    } catch (ModelFailure e) {
      return e.getMessage();
    }
  }

  private Optional<ModelSpec> spec(String model) {
    ModelCatalog models = catalog.get();
    return models.model(model == null ? models.defaultModel() : model);
  }

  @Override
  public RunningTurn start(TurnRequest request, TurnEvents events) throws BackendException {
    ModelCatalog models = catalog.get();
    String name = request.model() == null ? models.defaultModel() : request.model();
    ModelSpec spec =
        models
            .model(name)
            .orElseThrow(
                () ->
                    new BackendException(
                        "The model '" + name + "' is no longer in cortex.toml's [models]."));
    ApiKeys keys = new ApiKeys(home, request.environment());
    String key;
    try {
      key = keys.require(models.provider(spec.provider()));
    } catch (ModelFailure e) {
      throw new BackendException(e.getMessage());
    }
    Thinking thinking =
        Thinking.fromWireName(request.environment().get("CORTEX_THINKING")).orElse(Thinking.OFF);
    ModelCalls calls =
        new ModelCalls(client, models, keys, retries, sleeper, RandomGenerator.getDefault());
    boolean composed = hasGroups(request.environment());
    ApiTurn turn =
        new ApiTurn(
            request,
            events,
            calls,
            models,
            spec,
            thinking,
            SystemPrompt.text(request, LocalDate.now(clock)),
            conversations,
            () -> composed ? InProcessTools.open(servers, request.environment()) : ToolSession.NONE,
            key);
    turn.start();
    return turn;
  }

  private static boolean hasGroups(Map<String, String> environment) {
    String bundles = environment.get("CORTEX_MCP_BUNDLES");
    return bundles != null && !bundles.isBlank();
  }
}
