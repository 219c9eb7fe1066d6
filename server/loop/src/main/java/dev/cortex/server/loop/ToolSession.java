package dev.cortex.server.loop;

import dev.cortex.base.Cancellation;
import dev.cortex.models.ToolDefinition;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** A turn's connection to the session's tools. */
public interface ToolSession extends AutoCloseable {
  /** The tools the model is offered, in the server's order. */
  List<ToolDefinition> tools();

  /**
   * Calls {@code name}; a failure of the tool comes back as an answer marked as an error, never as
   * an exception.
   *
   * @throws InterruptedException when {@code cancellation} tripped first
   */
  Answer call(String name, JsonNode input, Cancellation cancellation) throws InterruptedException;

  @Override
  void close();

  /** A tool's answer, flattened into text for the model. */
  public record Answer(String text, boolean error) {}

  /** No tools: a session of the {@code none} composition. */
  ToolSession NONE =
      new ToolSession() {
        @Override
        public List<ToolDefinition> tools() {
          return List.of();
        }

        @Override
        public Answer call(String name, JsonNode input, Cancellation cancellation) {
          return new Answer("No tool '" + name + "' is served in this session.", true);
        }

        @Override
        public void close() {}
      };
}
