package dev.cortex.slack;

import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.GroupDescriptor;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.webhook.Slack;
import dev.cortex.server.client.AgentServerClient;
import java.time.Duration;
import java.util.List;

/**
 * The {@code slack} group, served to sessions on Slack channels: {@code slack_send_file} posts a
 * file into the session's channel (and thread). The agent server, which holds the bot token,
 * uploads it; the tool answers what was sent, never the content.
 */
public final class SlackGroup {
  public static final String NAME = "slack";
  public static final String SERVER_KEY = "cortex-slack";
  public static final String SEND_FILE = "slack_send_file";

  public static final GroupDescriptor DESCRIPTOR =
      new GroupDescriptor(NAME, SERVER_KEY, "File delivery to Slack.", "mcp-config-slack.json");

  /** How long a delivery may take: up to 100 MB read, then uploaded. */
  private static final Duration REQUEST = Duration.ofMinutes(10);

  private SlackGroup() {}

  record Arguments(String filePath, String fileName, String title, String comment, String device) {}

  record Result(String fileId, String channel, String name, long size, String message) {}

  public static CapabilityGroup create(AgentServerClient agentServer) {
    return DESCRIPTOR.group(List.of(sendFile(agentServer)));
  }

  static ToolSpec sendFile(AgentServerClient agentServer) {
    return ToolSpec.builder(SEND_FILE, call -> send(agentServer, call))
        .title("Send a file to the Slack channel")
        .description(
            "Uploads one file (at most 100 MB) into this session's Slack channel, in its thread"
                + " when the session is a thread's, with an optional title and comment. With"
                + " device, the file is read on that remote device. The answer names the file"
                + " and its size, never its content.")
        .input(
            Schema.object()
                .required(
                    "file_path",
                    Schema.string(
                        "The file (relative to the working directory, or absolute).",
                        1,
                        dev.cortex.protocol.webhook.ChatFile.MAX_PATH))
                .optional(
                    "file_name",
                    Schema.string(
                        "The name shown in Slack (default: the path's last part).",
                        1,
                        dev.cortex.protocol.webhook.ChatFile.MAX_FILE_NAME))
                .optional("title", Schema.string("A title shown with it.", 1, Slack.MAX_TITLE))
                .optional(
                    "comment",
                    Schema.string("A message posted with the file.", 1, Slack.MAX_COMMENT))
                .optional(
                    "device",
                    Schema.string(
                        "A remote device to read the file on (see remote_devices); file_path is"
                            + " then an absolute path on that device.",
                        1,
                        dev.cortex.protocol.webhook.ChatFile.MAX_DEVICE))
                .build())
        .output(
            Schema.object()
                .required("file_id", Schema.string("Slack's id of the file."))
                .required("channel", Schema.string("The channel it went to."))
                .required("name", Schema.string("Its name in Slack."))
                .required("size", Schema.integer("Its size in bytes.", 0, Long.MAX_VALUE))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, false, false, true))
        .build();
  }

  private static Result send(AgentServerClient agentServer, ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    String session = call.context().session().sessionId();
    if (session == null) {
      throw new ToolException(
          Slack.Codes.NOT_SLACK,
          "Files go to a Slack session's channel, and this MCP server runs outside a session"
              + " (CORTEX_SESSION_ID is not set).");
    }
    Slack.SendFile request;
    try {
      request =
          new Slack.SendFile(
              session,
              args.filePath(),
              args.fileName(),
              args.title(),
              args.comment(),
              args.device());
    } catch (Sessions.BadRequest e) {
      throw new ToolException(ErrorCodes.INVALID_ARGUMENT, e.getMessage());
    }
    Slack.Sent sent =
        agentServer.post(
            Slack.SEND_FILE, request, Slack.Sent.class, REQUEST, call.context().cancellation());
    return new Result(
        sent.fileId(),
        sent.channel(),
        sent.name(),
        sent.size(),
        "Sent " + sent.name() + " (" + sent.size() + " bytes) to the Slack channel.");
  }
}
