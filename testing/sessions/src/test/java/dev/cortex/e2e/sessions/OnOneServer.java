package dev.cortex.e2e.sessions;

import dev.cortex.testing.AgentPrograms;
import dev.cortex.testing.AgentServer;
import dev.cortex.testing.SessionApi;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A test class whose tests share one agent server, started before the first and stopped after the
 * last; no test depends on another's leftovers (each makes its own sessions).
 */
abstract class OnOneServer {
  @TempDir static Path home;
  @TempDir static Path work;

  static SessionServer fixture;
  static AgentServer server;
  static SessionApi api;
  static AgentPrograms programs;

  @BeforeAll
  static void start() throws Exception {
    fixture = SessionServer.start(home, work);
    server = fixture.server;
    api = fixture.api;
    programs = fixture.programs;
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
      fixture = null;
    }
  }
}
