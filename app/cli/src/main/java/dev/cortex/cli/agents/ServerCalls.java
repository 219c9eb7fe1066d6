package dev.cortex.cli.agents;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.server.client.AgentServerClient;
import java.time.Duration;

/**
 * The session API calls of the delegation commands: a request posted to the agent server and its
 * typed answer, a refusal printed as its code and sentence.
 */
final class ServerCalls {
  private static final Duration DEADLINE = Duration.ofSeconds(60);

  private ServerCalls() {}

  @FunctionalInterface
  interface Work {
    int run();
  }

  static int attempt(Io io, Work work) {
    try {
      return work.run();
    } catch (CodedException e) {
      io.err().println("cortex: " + e.code() + ": " + e.getMessage());
      return CortexCommand.FAILED;
    } catch (Sessions.BadRequest e) {
      io.err().println("cortex: " + ErrorCodes.INVALID_ARGUMENT + ": " + e.getMessage());
      return CortexCommand.FAILED;
    }
  }

  static <T> T post(Io io, String route, Object request, Class<T> type) {
    AgentServerClient server = io.agentServer();
    try {
      return WireJson.bind(server.post(route, request, DEADLINE, Cancellation.NONE, e -> {}), type);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "The agent server's answer is not what this cortex expects ("
              + type.getSimpleName()
              + "); restart 'cortex server' from the same installation.");
    }
  }
}
