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
            Map.of(
                "SLACK_CHANNEL",
                "inherited",
                "PATH",
                "/bin",
                "SLACK_BOT_TOKEN",
                "xoxb-server-only",
                "FEISHU_APP_SECRET",
                "feishu-server-only",
                "FEISHU_VERIFICATION_TOKEN",
                "feishu-token-server-only",
                "FEISHU_ENCRYPT_KEY",
                "feishu-key-server-only"),
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
    assertThat(slack)
        .as("the platform's token stays with the server")
        .doesNotContainKey("SLACK_BOT_TOKEN");
    assertThat(slack).containsEntry("CORTEX_MCP_BUNDLES", "core,ext,slack");
    assertThat(feishu).containsEntry("FEISHU_CHANNEL", "oc_42").doesNotContainKey("SLACK_CHANNEL");
    assertThat(feishu)
        .doesNotContainKeys("FEISHU_APP_SECRET", "FEISHU_VERIFICATION_TOKEN", "FEISHU_ENCRYPT_KEY");
    assertThat(feishu).containsEntry("CORTEX_MCP_BUNDLES", "core,ext,feishu");
    assertThat(web).doesNotContainKeys("SLACK_CHANNEL", "FEISHU_CHANNEL");
    assertThat(web).containsEntry("CORTEX_MCP_BUNDLES", "core,ext,interaction,web");
    assertThat(web.get("CORTEX_MCP_CONFIG"))
        .isEqualTo(home.resolve("config/mcp-config.json").toString());
  }

  @Test
  void pluginConfig_startsEachServerAsItsProxy_andNamesNoValueOfIt() throws Exception {
    SessionEnvironment environment =
        new SessionEnvironment(
            new CortexHome(home, home.resolve("data")), Map.of(), "token", () -> 3001);
    java.nio.file.Files.createDirectories(home.resolve("config"));
    java.nio.file.Files.writeString(
        home.resolve("config/mcp-config.json"),
        "{\"mcpServers\": {\"cortex-core\": {\"command\": \"/opt/cortex/bin/cortex\","
            + " \"args\": [\"--quiet\", \"mcp\", \"--default-bundles\", \"core,ext\"]}}}");
    assertThat(environment.launcher()).containsExactly("/opt/cortex/bin/cortex", "--quiet");

    List<String> proxy = List.of("/opt/cortex/bin/cortex", "plugin-proxy", "/h/spec.json");
    Path file =
        environment.pluginConfig(
            List.of(
                new dev.cortex.server.sessions.backend.TurnRequest.PluginMcp(
                    "plugin-p-web",
                    "p",
                    "web",
                    "streamable-http",
                    null,
                    null,
                    null,
                    null,
                    "https://example.com/secret-path",
                    Map.of("X-Key", "secret-value"),
                    proxy),
                new dev.cortex.server.sessions.backend.TurnRequest.PluginMcp(
                    "plugin-p-far",
                    "p",
                    "far",
                    "sse",
                    null,
                    null,
                    null,
                    null,
                    "https://example.com/other-secret",
                    Map.of(),
                    null)));
    String text = java.nio.file.Files.readString(file);
    assertThat(text)
        .contains("plugin-p-web", "plugin-proxy", "/h/spec.json")
        .doesNotContain("secret", "plugin-p-far");
    assertThat(java.nio.file.Files.getPosixFilePermissions(file))
        .isEqualTo(java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
  }
}
