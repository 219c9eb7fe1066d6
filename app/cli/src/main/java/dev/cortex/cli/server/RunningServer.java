package dev.cortex.cli.server;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import dev.cortex.protocol.webhook.Webhook;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import tools.jackson.databind.JsonNode;

/**
 * The agent server running for a home, as it described itself in {@code data/server.json}, while
 * its process lives.
 */
public record RunningServer(ProcessHandle process, JsonNode self) {

  /** The server of {@code home}, or null when none runs (no file, or its process ended). */
  public static RunningServer of(CortexHome home) {
    Path file = home.dataDir().resolve(Webhook.SERVER_FILE);
    JsonNode self;
    try {
      self = Json.mapper().readTree(Files.readString(file));
    } catch (IOException | RuntimeException e) {
      return null;
    }
    Optional<ProcessHandle> process = ProcessHandle.of(self.path("pid").asLong(-1));
    return process.filter(ProcessHandle::isAlive).map(p -> new RunningServer(p, self)).orElse(null);
  }

  long pid() {
    return process.pid();
  }

  int webhookPort() {
    return self.path("webhook_port").asInt();
  }
}
