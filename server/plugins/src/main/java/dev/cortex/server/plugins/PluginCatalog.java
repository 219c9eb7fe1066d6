package dev.cortex.server.plugins;

import dev.cortex.base.CortexHome;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The plugin packages under {@code $CORTEX_HOME/plugins/}, read fresh on each call. Each package is
 * {@code <id>/plugin.json} (its name, version and description), an optional root {@code mcp.json}
 * whose {@code mcpServers} are {@code stdio} (command, args, env, cwd), {@code streamable-http} or
 * {@code sse} (url, headers) servers, and optional {@code skills/<name>/SKILL.md}. Every component
 * is checked on its own: one that breaks a rule is left out with its reason, and the rest loads.
 *
 * <p>The rules: only {@code ${PLUGIN_ROOT}} (the package's folder) and {@code ${PLUGIN_DATA}} (its
 * private data folder, made when a server needing it is started) expand, and only in a stdio
 * server's values; the files and folders a package names stay inside its folder, symbolic links
 * included; a remote URL is https, or http to a loopback address, without credentials or fragment.
 * A reason names the field it is about and never repeats its value.
 */
public final class PluginCatalog {
  public static final String DIR = "plugins";
  public static final String MANIFEST = "plugin.json";
  public static final String MCP = "mcp.json";
  public static final String STDIO = "stdio";
  public static final String STREAMABLE_HTTP = "streamable-http";
  public static final String SSE = "sse";

  public static final Pattern ID = dev.cortex.protocol.session.Plugins.ID;
  static final Pattern SERVER_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
  static final Pattern SKILL_NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");

  /** What an HTTP header value may hold: visible Latin-1 characters, spaces and tabs. */
  static final Pattern HEADER_VALUE = Pattern.compile("[\\t\\x20-\\x7e\\xa0-\\xff]*");

  /** Headers the HTTP client or the MCP transport sets itself. */
  static final java.util.Set<String> RESTRICTED_HEADERS =
      java.util.Set.of(
          "host",
          "connection",
          "content-length",
          "expect",
          "upgrade",
          "transfer-encoding",
          "te",
          "trailer",
          "accept",
          "content-type",
          "mcp-session-id",
          "mcp-protocol-version",
          "last-event-id");

  static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,127}");
  static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}]*)}");

  public static final String ROOT_VARIABLE = "${PLUGIN_ROOT}";
  public static final String DATA_VARIABLE = "${PLUGIN_DATA}";

  /** The most packages listed, servers per package and skills per package. */
  public static final int MAX_PLUGINS = 64;

  public static final int MAX_SERVERS = 32;
  public static final int MAX_SKILLS = 64;

  /** The most bytes of a manifest, an {@code mcp.json} or a {@code SKILL.md}. */
  static final long MAX_FILE = 1 << 20;

  private static final Set<String> STDIO_KEYS = Set.of("type", "command", "args", "env", "cwd");
  private static final Set<String> REMOTE_KEYS = Set.of("type", "url", "headers");
  private static final JsonMapper JSON =
      JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  private final Path dir;

  public PluginCatalog(Path dir) {
    this.dir = dir;
  }

  public static PluginCatalog of(CortexHome home) {
    return new PluginCatalog(home.root().resolve(DIR));
  }

  /** The folder of the packages. */
  public Path dir() {
    return dir;
  }

  /** Every package, by id (at most {@link #MAX_PLUGINS}); none when the folder is missing. */
  public List<Plugin> list() throws IOException {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    List<Path> folders;
    try (Stream<Path> entries = Files.list(dir)) {
      folders = entries.filter(Files::isDirectory).sorted().limit(MAX_PLUGINS).toList();
    }
    List<Plugin> plugins = new ArrayList<>();
    for (Path folder : folders) {
      plugins.add(read(folder.getFileName().toString(), folder));
    }
    return plugins;
  }

  /** The package {@code id}, if there is one. */
  public Optional<Plugin> get(String id) {
    if (id == null || !ID.matcher(id).matches()) {
      return Optional.empty();
    }
    Path folder = dir.resolve(id);
    return Files.isDirectory(folder) ? Optional.of(read(id, folder)) : Optional.empty();
  }

  private static Plugin read(String id, Path folder) {
    List<Plugin.Problem> problems = new ArrayList<>();
    if (!ID.matcher(id).matches()) {
      problems.add(
          new Plugin.Problem(
              "folder",
              "'"
                  + id
                  + "' is not a plugin id: 1-64 lower-case letters, digits, '.', '_' and '-',"
                  + " starting with a letter or digit"));
      return new Plugin(id, null, null, null, folder, List.of(), List.of(), problems, null);
    }
    Path root;
    try {
      root = folder.toRealPath();
    } catch (IOException e) {
      problems.add(new Plugin.Problem("folder", "it cannot be read"));
      return new Plugin(id, null, null, null, folder, List.of(), List.of(), problems, null);
    }
    Manifest manifest = manifest(root, problems);
    if (manifest == null) {
      return new Plugin(id, null, null, null, root, List.of(), List.of(), problems, null);
    }
    List<PluginServer> servers = new ArrayList<>();
    String hash = servers(root, servers, problems);
    List<Plugin.Skill> skills = skills(root, problems);
    return new Plugin(
        id,
        manifest.name,
        manifest.version,
        manifest.description,
        root,
        servers,
        skills,
        problems,
        hash);
  }

  private record Manifest(String name, String version, String description) {}

  private static Manifest manifest(Path root, List<Plugin.Problem> problems) {
    JsonNode node;
    try {
      byte[] bytes = file(root, root.resolve(MANIFEST), MANIFEST);
      node = JSON.readTree(bytes);
    } catch (Refused e) {
      problems.add(new Plugin.Problem(MANIFEST, e.getMessage()));
      return null;
    } catch (JacksonException e) {
      problems.add(new Plugin.Problem(MANIFEST, "it is not valid JSON"));
      return null;
    }
    try {
      if (!node.isObject()) {
        throw new Refused("it must be a JSON object");
      }
      return new Manifest(
          text(node, "name", 1, 128, true),
          text(node, "version", 1, 64, false),
          text(node, "description", 0, 2000, false));
    } catch (Refused e) {
      problems.add(new Plugin.Problem(MANIFEST, e.getMessage()));
      return null;
    }
  }

  /** Reads {@code mcp.json} into {@code servers}; its hash, null without one. */
  private static String servers(
      Path root, List<PluginServer> servers, List<Plugin.Problem> problems) {
    Path file = root.resolve(MCP);
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return null;
    }
    byte[] bytes;
    JsonNode node;
    try {
      bytes = file(root, file, MCP);
    } catch (Refused e) {
      problems.add(new Plugin.Problem(MCP, e.getMessage()));
      return null;
    }
    String hash = sha256(bytes);
    try {
      node = JSON.readTree(bytes);
    } catch (JacksonException e) {
      problems.add(new Plugin.Problem(MCP, "it is not valid JSON"));
      return hash;
    }
    JsonNode entries = node.path("mcpServers");
    if (!node.isObject() || !entries.isObject()) {
      problems.add(new Plugin.Problem(MCP, "it must be an object with an object 'mcpServers'"));
      return hash;
    }
    int count = 0;
    for (Map.Entry<String, JsonNode> entry : entries.properties()) {
      String component = MCP + ": mcpServers." + entry.getKey();
      if (++count > MAX_SERVERS) {
        problems.add(
            new Plugin.Problem(
                component, "a package declares at most " + MAX_SERVERS + " servers"));
        continue;
      }
      try {
        servers.add(server(root, entry.getKey(), entry.getValue()));
      } catch (Refused e) {
        problems.add(new Plugin.Problem(component, e.getMessage()));
      }
    }
    return hash;
  }

  private static PluginServer server(Path root, String name, JsonNode node) {
    if (!SERVER_NAME.matcher(name).matches()) {
      throw new Refused(
          "a server name is 1-64 letters, digits, '_' and '-', starting with a letter or digit");
    }
    if (!node.isObject()) {
      throw new Refused("a server must be a JSON object");
    }
    String type = text(node, "type", 1, 32, false);
    if (type == null) {
      type = node.has("command") ? STDIO : node.has("url") ? STREAMABLE_HTTP : null;
    } else if (type.equals("http")) {
      type = STREAMABLE_HTTP;
    }
    if (type == null) {
      throw new Refused("a server has a 'command' (stdio) or a 'url' (streamable-http, sse)");
    }
    switch (type) {
      case STDIO:
        known(node, STDIO_KEYS);
        return stdio(root, name, node);
      case STREAMABLE_HTTP:
      case SSE:
        known(node, REMOTE_KEYS);
        return remote(name, type, node);
      default:
        throw new Refused("type must be stdio, streamable-http (or http) or sse");
    }
  }

  private static PluginServer.Stdio stdio(Path root, String name, JsonNode node) {
    boolean[] data = new boolean[1];
    String command = expand(root, text(node, "command", 1, 4096, true), "command", data);
    if (command.contains("/") || command.contains("\\")) {
      inside(root, command, "command", true);
    }
    List<String> args = new ArrayList<>();
    JsonNode list = node.path("args");
    if (!list.isMissingNode() && !list.isNull()) {
      if (!list.isArray() || list.size() > 256) {
        throw new Refused("args must be an array of at most 256 strings");
      }
      for (JsonNode arg : list) {
        if (!arg.isString() || arg.asString().length() > 32_768) {
          throw new Refused("args must be an array of strings");
        }
        String raw = arg.asString();
        String value = expand(root, raw, "args", data);
        if (raw.startsWith(ROOT_VARIABLE)) {
          inside(root, value, "args", false);
        }
        args.add(value);
      }
    }
    Map<String, String> env = new LinkedHashMap<>();
    JsonNode vars = node.path("env");
    if (!vars.isMissingNode() && !vars.isNull()) {
      if (!vars.isObject() || vars.size() > 128) {
        throw new Refused("env must be an object of at most 128 strings");
      }
      for (Map.Entry<String, JsonNode> var : vars.properties()) {
        if (!ENV_NAME.matcher(var.getKey()).matches()) {
          throw new Refused("env names are letters, digits and '_', not starting with a digit");
        }
        if (!var.getValue().isString()) {
          throw new Refused("env." + var.getKey() + " must be a string");
        }
        env.put(var.getKey(), expand(root, var.getValue().asString(), "env", data));
      }
    }
    String cwd = text(node, "cwd", 1, 4096, false);
    if (cwd != null) {
      cwd = expand(root, cwd, "cwd", data);
      inside(root, cwd, "cwd", true);
    }
    return new PluginServer.Stdio(name, command, args, env, cwd, data[0]);
  }

  private static PluginServer.Remote remote(String name, String type, JsonNode node) {
    String url = text(node, "url", 1, 4096, true);
    if (url.contains("${")) {
      throw new Refused("a remote server expands no variables: url holds one");
    }
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new Refused("url is not a valid URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
      throw new Refused("url must be an https URL (or http to a loopback address)");
    }
    if (scheme.equals("http") && !loopback(uri.getHost())) {
      throw new Refused("url must be https: plain http is only for loopback addresses");
    }
    if (uri.getRawUserInfo() != null) {
      throw new Refused("url must not carry credentials: put them in headers");
    }
    if (uri.getRawFragment() != null) {
      throw new Refused("url must not have a fragment");
    }
    Map<String, String> headers = new LinkedHashMap<>();
    JsonNode given = node.path("headers");
    if (!given.isMissingNode() && !given.isNull()) {
      if (!given.isObject() || given.size() > 64) {
        throw new Refused("headers must be an object of at most 64 strings");
      }
      for (Map.Entry<String, JsonNode> header : given.properties()) {
        if (!HEADER_NAME.matcher(header.getKey()).matches()) {
          throw new Refused("a header name is 1-128 token characters");
        }
        if (RESTRICTED_HEADERS.contains(header.getKey().toLowerCase(java.util.Locale.ROOT))) {
          throw new Refused(
              "headers." + header.getKey() + " is set by the connection itself, not by a package");
        }
        JsonNode value = header.getValue();
        if (!value.isString()
            || !HEADER_VALUE.matcher(value.asString()).matches()
            || value.asString().length() > 8192) {
          throw new Refused(
              "headers."
                  + header.getKey()
                  + " must be a one-line string of visible characters, spaces and tabs");
        }
        if (value.asString().contains("${")) {
          throw new Refused(
              "a remote server expands no variables: headers." + header.getKey() + " holds one");
        }
        headers.put(header.getKey(), value.asString());
      }
    }
    return new PluginServer.Remote(name, type, uri, headers);
  }

  static boolean loopback(String host) {
    String h = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    return h.equalsIgnoreCase("localhost")
        || h.equals("::1")
        || h.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
  }

  private static List<Plugin.Skill> skills(Path root, List<Plugin.Problem> problems) {
    Path folder = root.resolve("skills");
    if (!Files.isDirectory(folder, LinkOption.NOFOLLOW_LINKS)) {
      if (Files.exists(folder, LinkOption.NOFOLLOW_LINKS)) {
        problems.add(new Plugin.Problem("skills", "it must be a folder inside the plugin"));
      }
      return List.of();
    }
    List<Path> entries;
    try (Stream<Path> listed = Files.list(folder)) {
      entries = listed.sorted().toList();
    } catch (IOException e) {
      problems.add(new Plugin.Problem("skills", "the folder cannot be read"));
      return List.of();
    }
    List<Plugin.Skill> skills = new ArrayList<>();
    for (Path entry : entries) {
      String name = entry.getFileName().toString();
      String component = "skills/" + name;
      try {
        if (skills.size() >= MAX_SKILLS) {
          throw new Refused("a package has at most " + MAX_SKILLS + " skills");
        }
        if (!SKILL_NAME.matcher(name).matches()) {
          throw new Refused(
              "a skill name is 1-64 lower-case letters, digits, '_' and '-', starting with a"
                  + " letter or digit");
        }
        Path file = entry.resolve("SKILL.md");
        String text = new String(file(root, file, component + "/SKILL.md"), StandardCharsets.UTF_8);
        skills.add(new Plugin.Skill(name, description(text), file));
      } catch (Refused e) {
        problems.add(new Plugin.Problem(component, e.getMessage()));
      }
    }
    return skills;
  }

  /** The {@code description:} of a SKILL.md's front matter, else its first line of text. */
  static String description(String text) {
    String[] lines = text.split("\\R", -1);
    int from = 0;
    if (lines[0].strip().equals("---")) {
      int end = -1;
      for (int i = 1; i < lines.length && end < 0; i++) {
        if (lines[i].strip().equals("---")) {
          end = i;
        }
      }
      if (end > 0) {
        for (int i = 1; i < end; i++) {
          if (lines[i].startsWith("description:")) {
            return cut(unquote(lines[i].substring("description:".length()).strip()));
          }
        }
        from = end + 1;
      }
    }
    for (int i = from; i < lines.length; i++) {
      String line = lines[i].strip().replaceFirst("^#+\\s*", "");
      if (!line.isEmpty()) {
        return cut(line);
      }
    }
    return null;
  }

  private static String unquote(String value) {
    if (value.length() >= 2
        && (value.startsWith("\"") && value.endsWith("\"")
            || value.startsWith("'") && value.endsWith("'"))) {
      return value.substring(1, value.length() - 1);
    }
    return value;
  }

  private static String cut(String text) {
    return text.length() > 500 ? text.substring(0, 499) + "…" : text;
  }

  // ---- rules

  /** A component broke a rule; its message is the reason, without the offending value. */
  static final class Refused extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Refused(String reason) {
      super(reason, null, false, false);
    }
  }

  /** A regular file of the package, inside its folder once links are followed, read whole. */
  private static byte[] file(Path root, Path file, String what) {
    if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      throw new Refused("it is missing");
    }
    try {
      Path real = file.toRealPath();
      if (!real.startsWith(root)) {
        throw new Refused("it leads outside the plugin's folder (a symbolic link)");
      }
      if (!Files.isRegularFile(real)) {
        throw new Refused("it is not a regular file");
      }
      if (Files.size(real) > MAX_FILE) {
        throw new Refused("it is larger than " + (MAX_FILE >> 10) + " KiB");
      }
      return Files.readAllBytes(real);
    } catch (IOException e) {
      throw new Refused(what + " cannot be read");
    }
  }

  /**
   * {@code value} with {@code ${PLUGIN_ROOT}} replaced by the package's folder; {@code
   * ${PLUGIN_DATA}} is kept (and noted in {@code data}); any other variable is refused.
   */
  private static String expand(Path root, String value, String field, boolean[] data) {
    Matcher m = VARIABLE.matcher(value);
    while (m.find()) {
      String name = m.group(1);
      if (name.equals("PLUGIN_DATA")) {
        data[0] = true;
      } else if (!name.equals("PLUGIN_ROOT")) {
        throw new Refused(
            "only ${PLUGIN_ROOT} and ${PLUGIN_DATA} expand; " + field + " names ${" + name + "}");
      }
    }
    return value.replace(ROOT_VARIABLE, root.toString());
  }

  /**
   * Checks that the path {@code value} (relative to the package's folder) stays inside it, links
   * followed, or inside its data folder; {@code mustExist} for a file or folder to be used as is.
   */
  private static void inside(Path root, String value, String field, boolean mustExist) {
    if (value.startsWith(DATA_VARIABLE)) {
      Path rest =
          Path.of("data").resolve(value.substring(DATA_VARIABLE.length()).replaceFirst("^/+", ""));
      if (!rest.normalize().startsWith("data")) {
        throw new Refused(field + " leads outside the plugin's data folder");
      }
      return;
    }
    if (value.contains(DATA_VARIABLE)) {
      throw new Refused(field + " may hold ${PLUGIN_DATA} only at its start");
    }
    Path path = root.resolve(value).normalize();
    if (!path.startsWith(root)) {
      throw new Refused(field + " leads outside the plugin's folder");
    }
    if (Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
      try {
        if (!path.toRealPath().startsWith(root)) {
          throw new Refused(field + " leads outside the plugin's folder (a symbolic link)");
        }
      } catch (IOException e) {
        throw new Refused(field + " cannot be read");
      }
    } else if (mustExist) {
      throw new Refused(field + " names a file or folder the plugin does not have");
    }
  }

  private static void known(JsonNode node, Set<String> keys) {
    for (String key : node.propertyNames()) {
      if (!keys.contains(key)) {
        throw new Refused(
            "unknown field '"
                + key
                + "' (known: "
                + String.join(", ", keys.stream().sorted().toList())
                + ")");
      }
    }
  }

  private static String text(JsonNode node, String key, int min, int max, boolean required) {
    JsonNode value = node.path(key);
    if (value.isMissingNode() || value.isNull()) {
      if (required) {
        throw new Refused("'" + key + "' is required");
      }
      return null;
    }
    if (!value.isString()) {
      throw new Refused("'" + key + "' must be a string");
    }
    String text = value.asString();
    if (text.length() < min || text.length() > max) {
      throw new Refused("'" + key + "' must be " + min + "-" + max + " characters");
    }
    return text;
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
