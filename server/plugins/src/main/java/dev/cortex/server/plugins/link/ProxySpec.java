package dev.cortex.server.plugins.link;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cortex.base.CortexHome;
import dev.cortex.base.Hashes;
import dev.cortex.base.Json;
import dev.cortex.server.plugins.PluginMaterials;
import dev.cortex.server.plugins.PluginServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the plugin proxy ({@code cortex plugin-proxy FILE}) serves: one server of one plugin in one
 * environment, with its values and the tools confirmed. It is written by the agent server into an
 * owner-only file named by its content, so that the values stay out of every command line and every
 * configuration a client reads.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ProxySpec(
    String plugin,
    String environment,
    String name,
    String type,
    String command,
    List<String> args,
    Map<String, String> env,
    String cwd,
    String url,
    Map<String, String> headers,
    Map<String, String> pins,
    java.time.Instant confirmedAt) {

  /** The spec of a server ready to start. */
  public static ProxySpec of(PluginMaterials.Ready ready) {
    if (ready.server() instanceof PluginServer.Stdio stdio) {
      return new ProxySpec(
          ready.pluginId(),
          ready.environment(),
          stdio.name(),
          stdio.type(),
          stdio.command(),
          stdio.args(),
          stdio.env(),
          stdio.cwd(),
          null,
          null,
          ready.pins(),
          ready.confirmedAt());
    }
    PluginServer.Remote remote = (PluginServer.Remote) ready.server();
    return new ProxySpec(
        ready.pluginId(),
        ready.environment(),
        remote.name(),
        remote.type(),
        null,
        null,
        null,
        null,
        remote.url().toString(),
        remote.headers(),
        ready.pins(),
        ready.confirmedAt());
  }

  /** The server it names. */
  public PluginServer server() {
    if (type.equals("stdio")) {
      return new PluginServer.Stdio(
          name, command, args == null ? List.of() : args, env == null ? Map.of() : env, cwd, false);
    }
    return new PluginServer.Remote(
        name, type, URI.create(url), headers == null ? Map.of() : headers);
  }

  /** Writes it under {@code dir} (owner-only, once per content) and returns the file. */
  public Path write(Path dir) {
    String text = Json.writePretty(this) + "\n";
    Path file = dir.resolve("plugin-proxy-" + Hashes.sha256Prefix(text, 12) + ".json");
    if (!Files.isRegularFile(file)) {
      CortexHome.writeAtomically(file, text);
    }
    return file;
  }

  /** Reads one written by {@link #write}. */
  public static ProxySpec read(Path file) throws IOException {
    try {
      return Json.mapper().readValue(Files.readString(file), ProxySpec.class);
    } catch (RuntimeException e) {
      throw new IOException("the plugin proxy's file cannot be read");
    }
  }
}
