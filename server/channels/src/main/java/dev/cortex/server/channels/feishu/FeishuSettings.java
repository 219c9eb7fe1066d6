package dev.cortex.server.channels.feishu;

import dev.cortex.base.settings.SettingsTable;
import dev.cortex.base.settings.TableValues;
import dev.cortex.server.channels.ChannelTable;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code [feishu]} table of {@code cortex.toml}: Feishu (or Lark) as a front door of the agent
 * server. Read when the agent server starts. The credentials are not settings: {@code
 * FEISHU_APP_ID}, {@code FEISHU_APP_SECRET}, {@code FEISHU_VERIFICATION_TOKEN} and, when the event
 * subscription encrypts, {@code FEISHU_ENCRYPT_KEY} come from the environment or the owner-only
 * secrets file.
 *
 * <pre>
 * [feishu]
 * enabled = true
 * api_url = "https://open.feishu.cn/open-apis/"  # Lark: https://open.larksuite.com/open-apis/
 * chats = ["oc_0123"]                  # chat ids whose messages may start sessions
 * tenants = ["2ed263bf32cf1651"]       # tenant keys whose chats may start sessions
 * users = ["ou_0123"]                  # if given, only these people (open ids) take part
 * backend = "claude"                   # of new sessions (default: the server's)
 * project = "support"                  # of new sessions (default: none)
 * working_directory = "/srv/support"   # of new sessions (default: the server's home folder)
 * program = ["my-agent", "--json"]     # for the command backend: the program of each turn
 * </pre>
 *
 * A message counts when its chat is listed or its tenant is; with neither list given, none does
 * (the adapter says so at start).
 */
public record FeishuSettings(
    boolean enabled,
    URI apiUrl,
    List<String> chats,
    List<String> tenants,
    List<String> users,
    String backend,
    String project,
    Path workingDirectory,
    List<String> program) {
  public static final URI FEISHU = URI.create("https://open.feishu.cn/open-apis/");

  public static final FeishuSettings OFF =
      new FeishuSettings(false, FEISHU, List.of(), List.of(), List.of(), null, null, null, null);

  static final String IDS = "holds Feishu ids (letters, digits, _ and -)";

  static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{2,64}");

  public FeishuSettings {
    chats = List.copyOf(chats);
    tenants = List.copyOf(tenants);
    users = List.copyOf(users);
    program = program == null ? null : List.copyOf(program);
  }

  /** Whether a message of {@code user} in {@code chat} of {@code tenant} may be taken. */
  public boolean allows(String tenant, String chat, String user) {
    boolean where =
        (tenant != null && tenants.contains(tenant)) || (chat != null && chats.contains(chat));
    return where && (users.isEmpty() || (user != null && users.contains(user)));
  }

  public static final SettingsTable<FeishuSettings> TABLE =
      new SettingsTable<>() {
        @Override
        public String name() {
          return "feishu";
        }

        @Override
        public Set<String> keys() {
          return Set.of(
              "enabled",
              "api_url",
              "chats",
              "tenants",
              "users",
              "backend",
              "project",
              "working_directory",
              "program");
        }

        @Override
        public Map<String, String> variables() {
          return Map.of("CORTEX_FEISHU_ENABLED", "enabled", "CORTEX_FEISHU_API_URL", "api_url");
        }

        @Override
        public FeishuSettings read(TableValues values) {
          URI api = ChannelTable.apiUrl(values, FEISHU.toString());
          return new FeishuSettings(
              values.bool("enabled", false),
              api,
              ChannelTable.ids(values, "chats", ID, IDS),
              ChannelTable.ids(values, "tenants", ID, IDS),
              ChannelTable.ids(values, "users", ID, IDS),
              ChannelTable.text(values, "backend"),
              ChannelTable.text(values, "project"),
              ChannelTable.workingDirectory(values),
              values.strings("program"));
        }
      };
}
