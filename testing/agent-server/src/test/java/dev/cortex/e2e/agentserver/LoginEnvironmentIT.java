package dev.cortex.e2e.agentserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.McpClients;
import dev.cortex.testing.Outcome;
import io.modelcontextprotocol.client.McpSyncClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code remote_bash} on real devices whose user has a login profile: by default the profile is
 * read once (its exported variables apply, an edit is picked up at the next command); with {@code
 * cortex client --login-shell-per-command} it is read for every command, as before.
 */
class LoginEnvironmentIT {
  static final String SHARED = "shared-token-for-login-tests-01234";

  @TempDir Path serverHome;
  @TempDir Path onceHome;
  @TempDir Path eachHome;
  @TempDir Path userOnce;
  @TempDir Path userEach;
  @TempDir Path work;

  static void profile(Path user, String value) throws Exception {
    Path file = user.resolve(".bash_profile");
    FileTime before = Files.exists(file) ? Files.getLastModifiedTime(file) : null;
    Files.writeString(file, "echo read >> \"$HOME/reads\"\nexport FROM_PROFILE=" + value + "\n");
    if (before != null) {
      Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 2_000));
    }
  }

  static long reads(Path user) throws Exception {
    Path log = user.resolve("reads");
    return Files.exists(log) ? Files.readAllLines(log).size() : 0;
  }

  static String echo(McpSyncClient client, String device) {
    Outcome result =
        McpClients.call(
            client, "remote_bash", Map.of("device", device, "command", "echo $FROM_PROFILE"));
    assertThat(result.isError()).as(result.text()).isFalse();
    return result.structured().path("output").path("text").asString().strip();
  }

  @Test
  void theProfileIsReadOnce_editsArePickedUp_andTheFlagReadsItPerCommand() throws Exception {
    profile(userOnce, "once");
    profile(userEach, "each");
    try (AgentServer server =
        new AgentServer(serverHome, Map.of("CORTEX_CLIENT_TOKEN", SHARED))
            .machines(
                """
                {"machines": {"once": {"platform": "linux"}, "each": {"platform": "linux"}}}
                """)
            .start()) {
      server.connect(
          "once",
          onceHome,
          Map.of("CORTEX_CLIENT_TOKEN", SHARED, "HOME", userOnce.toString()),
          "--workdir",
          work.toString());
      server.connect(
          "each",
          eachHome,
          Map.of("CORTEX_CLIENT_TOKEN", SHARED, "HOME", userEach.toString()),
          "--workdir",
          work.toString(),
          "--login-shell-per-command");
      McpSyncClient client = McpClients.cortex(serverHome, null, "core");
      try {
        for (int i = 0; i < 3; i++) {
          assertThat(echo(client, "once")).isEqualTo("once");
          assertThat(echo(client, "each")).isEqualTo("each");
        }
        assertThat(reads(userOnce)).isEqualTo(1);
        assertThat(reads(userEach)).isEqualTo(3);

        profile(userOnce, "edited");
        assertThat(echo(client, "once")).isEqualTo("edited");
        assertThat(echo(client, "once")).isEqualTo("edited");
        assertThat(reads(userOnce)).isEqualTo(2);
      } finally {
        client.closeGracefully();
      }
    }
  }
}
