package dev.cortex.server.sessions;

import dev.cortex.protocol.session.Sessions;
import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.SessionStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Makes new sessions: checks a request against the rules of names, channels, projects, backends and
 * tool allowlists, fills in the defaults, and records the session, or refuses it with nothing
 * written. The {@code web:}, {@code slack:} and {@code feishu:} channels are reserved for the front
 * doors of those platforms: no caller of the session API may create a session on them.
 */
final class Creation {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final Pattern CHANNEL = Sessions.CHANNEL;
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
  private static final Pattern PROJECT = Sessions.PROJECT;
  private static final Pattern TOOL = Pattern.compile("[A-Za-z0-9_-]{1,128}");

  /** The channel kinds reserved for their platforms' front doors, by the platform's name. */
  private static final Map<String, String> RESERVED =
      Map.of("web", "web", "slack", "Slack", "feishu", "Feishu");

  private final SessionStore store;
  private final Map<String, Backend> backends;
  private final SessionSettings settings;
  private final AllowlistCheck allowlists;
  private final Clock clock;
  private final java.util.function.Function<Session, List<String>> groups;

  /**
   * @param backends the backends a session may have, by name, in order
   * @param groups the groups of a session's MCP server
   */
  Creation(
      SessionStore store,
      Map<String, Backend> backends,
      SessionSettings settings,
      AllowlistCheck allowlists,
      Clock clock,
      java.util.function.Function<Session, List<String>> groups) {
    this.groups = groups;
    this.store = store;
    this.backends = backends;
    this.settings = settings;
    this.allowlists = allowlists;
    this.clock = clock;
  }

  Session create(SessionService.NewSession request) throws SessionException {
    return create(request, false);
  }

  /**
   * @param frontDoor true when the request comes from one of this server's own front doors (the web
   *     workbench, a chat platform's adapter), which may create sessions on the reserved channels
   */
  Session create(SessionService.NewSession request, boolean frontDoor) throws SessionException {
    String backend = backend(request);
    Backend runner = backends.get(backend);
    String model = request.model() != null ? request.model() : settings.model();
    if (model == null) {
      model = runner.defaultModel();
    }
    String thinking = thinking(request.thinking());
    String unfit = runner.refusal(model, thinking);
    if (unfit != null) {
      throw invalid(unfit);
    }
    checkProject(request.project());
    List<String> allowlist = request.toolAllowlist();
    checkAllowlist(allowlist);
    Path dir = workingDirectory(request.workingDirectory());
    String name = name(request.name());
    String channel = channel(request.channel(), name, frontDoor);
    Instant now = clock.instant();
    Session session =
        new Session(
            "ses-" + hex(8),
            name,
            channel,
            request.project(),
            backend,
            model,
            runner.provider(model),
            thinking,
            request.mode() != null ? request.mode() : "default",
            request.composition() != null ? request.composition() : Session.Composition.DIRECT,
            request.startedBy() != null ? request.startedBy() : Session.StartedBy.PERSON,
            allowlist,
            request.program(),
            dir,
            Session.State.IDLE,
            null,
            now,
            now);
    List<String> groups = this.groups.apply(session);
    if (allowlist != null && !groups.isEmpty()) {
      String refusal = allowlists.refusal(groups, allowlist);
      if (refusal != null) {
        throw invalid("The session's MCP server could not start with this allowlist: " + refusal);
      }
    }
    return store.create(session);
  }

  /**
   * Why a session on {@code backend} with {@code model} could not be created, in a sentence; null
   * when it could (as far as the backend and model go).
   *
   * @param model null for the settings' or the backend's default
   */
  String unfit(String backend, String model) {
    Backend runner = backends.get(backend);
    if (runner == null) {
      return "Unknown backend '"
          + backend
          + "'. Known: "
          + String.join(", ", backends.keySet())
          + ".";
    }
    String chosen = model != null ? model : settings.model();
    return runner.refusal(chosen != null ? chosen : runner.defaultModel(), null);
  }

  private String backend(SessionService.NewSession request) throws SessionException {
    String backend = request.backend() != null ? request.backend() : settings.backend();
    if (!backends.containsKey(backend)) {
      throw invalid(
          "Unknown backend '"
              + backend
              + "'. Known: "
              + String.join(", ", backends.keySet())
              + ".");
    }
    if (backend.equals("command") && (request.program() == null || request.program().isEmpty())) {
      throw invalid("The command backend needs the program that runs each turn.");
    }
    return backend;
  }

  private static String thinking(String level) throws SessionException {
    if (level == null) {
      return null;
    }
    String name = level.strip().toLowerCase(java.util.Locale.ROOT);
    if (!dev.cortex.protocol.session.Sessions.THINKING.contains(name)) {
      throw invalid("Thinking is off, low, medium or high, not '" + level + "'.");
    }
    return name;
  }

  private static void checkProject(String project) throws SessionException {
    if (project != null && !PROJECT.matcher(project).matches()) {
      throw invalid(
          "'" + project + "' is not a project name: 1-128 letters, digits and . _ : / -.");
    }
  }

  private static void checkAllowlist(List<String> allowlist) throws SessionException {
    if (allowlist == null) {
      return;
    }
    if (allowlist.isEmpty()) {
      // An empty list would reach the MCP server as no allowlist at all: every tool.
      throw invalid("A tool allowlist names at least one tool; leave it out for all of them.");
    }
    for (String tool : allowlist) {
      if (tool == null || !TOOL.matcher(tool).matches()) {
        throw invalid("'" + tool + "' is not a tool name: 1-128 letters, digits, '_' or '-'.");
      }
    }
  }

  private static Path workingDirectory(Path given) throws SessionException {
    Path dir = given != null ? given : Path.of(System.getProperty("user.home"));
    if (!dir.isAbsolute() || !Files.isDirectory(dir)) {
      throw invalid("The working directory " + dir + " is not an existing absolute directory.");
    }
    return dir;
  }

  /** The name asked for, free and well formed, or a free {@code cortex-<6 hex>}. */
  private String name(String given) throws SessionException {
    if (given != null && !NAME.matcher(given).matches()) {
      throw invalid(
          "'" + given + "' is not a session name: 1-64 letters, digits, '.', '_' or '-'.");
    }
    if (given != null && store.find(given) != null) {
      throw invalid("A session named '" + given + "' exists already.");
    }
    String name = given;
    for (int i = 0; name == null && i < 20; i++) {
      String candidate = "cortex-" + hex(3);
      name = store.find(candidate) == null ? candidate : null;
    }
    return name;
  }

  private String channel(String given, String name, boolean frontDoor) throws SessionException {
    String channel = given != null ? given : "cli:" + name;
    if (!CHANNEL.matcher(channel).matches()) {
      throw invalid(
          "'"
              + channel
              + "' is not a channel: cli: and an id (web:, slack: and feishu: are reserved).");
    }
    String kind = channel.substring(0, channel.indexOf(':'));
    if (RESERVED.containsKey(kind) && !frontDoor) {
      throw new SessionException(
          SessionException.RESERVED_CHANNEL,
          "Channel "
              + channel
              + " is reserved for the "
              + RESERVED.get(kind)
              + " front door, which this agent server does not have; a session of cortex"
              + " sessions or cortex chat is on cli:NAME (the default).");
    }
    if (store.channelTaken(channel)) {
      throw invalid("Channel " + channel + " has a session already: one agent runs per channel.");
    }
    return channel;
  }

  static SessionException invalid(String message) {
    return new SessionException(SessionException.INVALID_ARGUMENT, message);
  }

  private static String hex(int bytes) {
    byte[] value = new byte[bytes];
    RANDOM.nextBytes(value);
    return HexFormat.of().formatHex(value);
  }
}
