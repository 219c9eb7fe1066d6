package dev.cortex.ext;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.tool.ToolOutcome;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.storage.Database;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

class ContextToolTest {
  @TempDir Path dir;
  Database database;
  ExtTools tools;

  @BeforeEach
  void open() {
    database = new Database(dir.resolve("data"), List.of(SessionsSchema.area()), Clock.systemUTC());
    tools = new ExtTools(ExtTools.home(dir), database, Clock.systemUTC(), Map.of());
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void handle_inASession_returnsItsContext() {
    SessionIdentity identity =
        new SessionIdentity(
            "ses-3fa2c1d0e4b5a697",
            "api",
            "claude",
            "opus",
            "anthropic",
            "high",
            "plan",
            "task-7",
            "github",
            null,
            null);

    ToolOutcome outcome = tools.call(ContextTool.NAME, "{}", identity);

    JsonNode context = outcome.body();
    assertThat(outcome.isError()).as(outcome.text()).isFalse();
    assertThat(context.path("sessionId").asString()).isEqualTo("ses-3fa2c1d0e4b5a697");
    assertThat(context.path("project").asString()).isEqualTo("api");
    assertThat(context.path("backend").asString()).isEqualTo("claude");
    assertThat(context.path("model").asString()).isEqualTo("opus");
    assertThat(context.path("provider").asString()).isEqualTo("anthropic");
    assertThat(context.path("thinking").asString()).isEqualTo("high");
    assertThat(context.path("mode").asString()).isEqualTo("plan");
    assertThat(context.path("scheduleTaskId").asString()).isEqualTo("task-7");
    assertThat(context.path("callbackSource").asString()).isEqualTo("github");
    assertThat(context.has("board")).as("no agent server names it a web session").isFalse();
  }

  @Test
  void handle_outsideASession_isNullThroughout() {
    ToolOutcome outcome = tools.call(ContextTool.NAME, "{}");

    assertThat(outcome.isError()).as(outcome.text()).isFalse();
    for (String field :
        List.of(
            "sessionId",
            "project",
            "backend",
            "model",
            "provider",
            "thinking",
            "mode",
            "scheduleTaskId",
            "callbackSource",
            "board")) {
      assertThat(outcome.body().path(field).isNull()).as(field).isTrue();
    }
  }

  @Test
  void handle_anyArgument_isRefused() {
    ToolOutcome outcome = tools.call(ContextTool.NAME, "{\"session\": \"x\"}");

    assertThat(ExtTools.code(outcome)).isEqualTo("INVALID_ARGUMENT");
  }
}
