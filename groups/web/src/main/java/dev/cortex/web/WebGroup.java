package dev.cortex.web;

import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.GroupDescriptor;
import dev.cortex.server.client.AgentServerClient;
import java.util.List;

/**
 * The {@code web} group, served to sessions of the web workbench ({@code web:} channels): {@code
 * send_file}, {@code send_view} and {@code send_decision} deliver files, live HTML views and
 * decision cards into the conversation, {@code board_open} binds the session to a board. The agent
 * server (reached through its webhook, for the calling session) keeps what they deliver; the tools
 * answer a short sentence, never the payload.
 */
public final class WebGroup {
  public static final String NAME = "web";
  public static final String SERVER_KEY = "cortex-web";

  public static final GroupDescriptor DESCRIPTOR =
      new GroupDescriptor(
          NAME,
          SERVER_KEY,
          "Files, views, decisions and boards for the web workbench.",
          "mcp-config-web.json");

  private WebGroup() {}

  public static CapabilityGroup create(AgentServerClient agentServer) {
    Webhook webhook = new Webhook(agentServer);
    return DESCRIPTOR.group(
        List.of(
            SendFile.spec(webhook),
            SendView.spec(webhook),
            SendDecision.spec(webhook),
            BoardOpen.spec(webhook)));
  }
}
