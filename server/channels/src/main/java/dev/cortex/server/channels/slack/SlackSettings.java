package dev.cortex.server.channels.slack;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import dev.cortex.server.channels.ChannelTable;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code [slack]} table of {@code cortex.toml}: Slack as a front door of the agent server. Read
 * when the agent server starts. The tokens are not settings: {@code SLACK_BOT_TOKEN} and, for
 * Socket Mode, {@code SLACK_APP_TOKEN} come from the environment or the owner-only secrets file.
 *
 * <pre>
 * [slack]
 * enabled = true
 * mode = "socket"                      # or "events": Slack posts to /slack/events (signed)
 * api_url = "https://slack.com/api/"   # where Slack's Web API is (a test server, a proxy)
 * workspaces = ["T0123"]               # team ids whose messages may start sessions
 * channels = ["C0123"]                 # channel ids whose messages may start sessions
 * users = ["U0123"]                    # if given, only these people start or continue sessions
 * backend = "claude"                   # of new sessions (default: the server's)
 * project = "support"                  # of new sessions (default: none)
 * working_directory = "/srv/support"   # of new sessions (default: the server's home folder)
 * program = ["my-agent", "--json"]     # for the command backend: the program of each turn
 * </pre>
 *
 * A message counts when its workspace is listed or its channel is; with neither list given, none
 * does (the adapter says so at start).
 */
public record SlackSettings(
    boolean enabled,
    String mode,
    URI apiUrl,
    List<String> workspaces,
    List<String> channels,
    List<String> users,
    String backend,
    String project,
    java.nio.file.Path workingDirectory,
    List<String> program) {
  public static final SlackSettings OFF =
      new SlackSettings(
          false,
          "socket",
          URI.create("https://slack.com/api/"),
          List.of(),
          List.of(),
          List.of(),
          null,
          null,
          null,
          null);

  static final String IDS = "holds Slack ids (upper-case letters and digits)";

  static final Pattern ID = Pattern.compile("[A-Z0-9]{2,32}");

  /** Socket Mode: the agent server connects to Slack (no public address needed). */
  public static final String SOCKET = "socket";

  /** The Events API: Slack posts signed requests to the webhook's {@code /slack/events}. */
  public static final String EVENTS = "events";

  public boolean events() {
    return EVENTS.equals(mode);
  }

  public SlackSettings {
    workspaces = List.copyOf(workspaces);
    channels = List.copyOf(channels);
    users = List.copyOf(users);
    program = program == null ? null : List.copyOf(program);
  }

  /** Whether a message of {@code user} in {@code channel} of {@code workspace} may be taken. */
  public boolean allows(String workspace, String channel, String user) {
    boolean where =
        (workspace != null && workspaces.contains(workspace))
            || (channel != null && channels.contains(channel));
    return where && (users.isEmpty() || (user != null && users.contains(user)));
  }

  public static final SettingsTable<SlackSettings> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "slack";
        }

        @Override
        public Set<String> keys() {
          return Set.of(
              "enabled",
              "mode",
              "api_url",
              "workspaces",
              "channels",
              "users",
              "backend",
              "project",
              "working_directory",
              "program");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of(
              "CORTEX_SLACK_ENABLED",
              "enabled",
              "CORTEX_SLACK_MODE",
              "mode",
              "CORTEX_SLACK_API_URL",
              "api_url");
        }

        @Override
        public SlackSettings read(TableValues values) {
          URI api = ChannelTable.apiUrl(values, "https://slack.com/api/");
          return new SlackSettings(
              values.bool("enabled", false),
              values.oneOf("mode", SOCKET, SOCKET, EVENTS),
              api,
              ChannelTable.ids(values, "workspaces", ID, IDS),
              ChannelTable.ids(values, "channels", ID, IDS),
              ChannelTable.ids(values, "users", ID, IDS),
              ChannelTable.text(values, "backend"),
              ChannelTable.text(values, "project"),
              ChannelTable.workingDirectory(values),
              values.strings("program"));
        }
      };
}
