package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.server.sessions.store.Session;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The composition and environment of the platform channels' sessions, which only their front doors
 * may create (the session API refuses them), read from the session records directly.
 */
class SessionEnvironmentTest {
  @TempDir Path home;

  static Session session(String channel, Session.StartedBy startedBy) {
    Instant now = Instant.parse("2026-12-01T10:00:00Z");
    return new Session(
        "ses-1",
        "platform",
        channel,
        null,
        "command",
        null,
        null,
        null,
        "default",
        Session.Composition.DIRECT,
        startedBy,
        null,
        List.of("agent"),
        Path.of("/"),
        Session.State.IDLE,
        null,
        now,
        now);
  }

  Map<String, String> environment(Session session) {
    SessionEnvironment environment =
        new SessionEnvironment(
            new CortexHome(home, home.resolve("data")),
            Map.of("SLACK_CHANNEL", "inherited", "PATH", "/bin"),
            "token",
            () -> 3001);
    return environment.environment(session, environment.mcpConfig(session));
  }

  @Test
  void groups_platformChannels_addTheirPlatformsGroup() {
    assertThat(SessionEnvironment.groups(session("web:board-7", Session.StartedBy.PERSON)))
        .containsExactly("core", "ext", "interaction", "web");
    assertThat(SessionEnvironment.groups(session("slack:C0123", Session.StartedBy.CALLBACK)))
        .containsExactly("core", "ext", "slack");
    assertThat(SessionEnvironment.groups(session("feishu:oc_42", Session.StartedBy.SCHEDULE)))
        .containsExactly("core", "ext", "feishu");
    assertThat(SessionEnvironment.groups(session("cli:plain", Session.StartedBy.AGENT)))
        .containsExactly("core", "ext");
  }

  @Test
  void groups_subagent_getsCoreAlone_orCoreAndExtOnClaude_andNeverAPlatformOrPersonGroup() {
    Session onCommand = session("cli:child", Session.StartedBy.SUBAGENT);
    assertThat(SessionEnvironment.groups(onCommand)).containsExactly("core");
    Session onClaude =
        new Session(
            onCommand.id(),
            onCommand.name(),
            "web:child",
            null,
            "claude",
            null,
            null,
            null,
            "default",
            Session.Composition.DIRECT,
            Session.StartedBy.SUBAGENT,
            List.of("current_time"),
            null,
            Path.of("/"),
            Session.State.IDLE,
            null,
            onCommand.createdAt(),
            onCommand.updatedAt());
    assertThat(SessionEnvironment.groups(onClaude)).containsExactly("core", "ext");
  }

  @Test
  void environment_slackAndFeishuChannels_nameTheirChannel_othersNone() {
    Map<String, String> slack = environment(session("slack:C0123", Session.StartedBy.CALLBACK));
    Map<String, String> feishu = environment(session("feishu:oc_42", Session.StartedBy.SCHEDULE));
    Map<String, String> web = environment(session("web:board-7", Session.StartedBy.PERSON));

    assertThat(slack).containsEntry("SLACK_CHANNEL", "C0123").doesNotContainKey("FEISHU_CHANNEL");
    assertThat(slack).containsEntry("CORTEX_MCP_BUNDLES", "core,ext,slack");
    assertThat(feishu).containsEntry("FEISHU_CHANNEL", "oc_42").doesNotContainKey("SLACK_CHANNEL");
    assertThat(feishu).containsEntry("CORTEX_MCP_BUNDLES", "core,ext,feishu");
    assertThat(web).doesNotContainKeys("SLACK_CHANNEL", "FEISHU_CHANNEL");
    assertThat(web).containsEntry("CORTEX_MCP_BUNDLES", "core,ext,interaction,web");
    assertThat(web.get("CORTEX_MCP_CONFIG"))
        .isEqualTo(home.resolve("config/mcp-config.json").toString());
  }
}
