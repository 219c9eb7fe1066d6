package dev.cortex.feishu;

import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.GroupDescriptor;
import dev.cortex.mcp.tool.PromptSpec;
import dev.cortex.mcp.tool.ResourceSpec;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.protocol.webhook.ChatFile;
import dev.cortex.protocol.webhook.Feishu;
import dev.cortex.server.client.AgentServerClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * The {@code feishu} group, served to sessions on Feishu chats: {@code feishu_send_file} sends a
 * file into the session's chat (or another chat that {@code [feishu]} allows), and the {@code
 * feishu-doc} skill (a prompt and a resource) says how documents, sheets and bases are worked on
 * with the official Feishu CLI. The agent server, which holds the app's credentials, uploads the
 * file; the tool answers what was sent, never the content.
 */
public final class FeishuGroup {
  public static final String NAME = "feishu";
  public static final String SERVER_KEY = "cortex-feishu";
  public static final String SEND_FILE = "feishu_send_file";
  public static final String SKILL = "feishu-doc";
  public static final String SKILL_URI = "cortex://skill/feishu-doc/SKILL.md";

  public static final GroupDescriptor DESCRIPTOR =
      new GroupDescriptor(NAME, SERVER_KEY, "File delivery to Feishu.", "mcp-config-feishu.json");

  /** How long a delivery may take: up to 30 MB read, then uploaded. */
  private static final Duration REQUEST = Duration.ofMinutes(10);

  private FeishuGroup() {}

  record Arguments(String filePath, String fileName, String title, String channel, String device) {}

  record Result(String fileKey, String chat, String name, long size, String message) {}

  public static CapabilityGroup create(AgentServerClient agentServer) {
    return DESCRIPTOR
        .group(
            List.of(sendFile(agentServer)),
            List.of(
                new PromptSpec(
                    SKILL,
                    "How to read and edit Feishu documents, sheets and bases with the official Feishu"
                        + " CLI (install, sign-in, its own guides).",
                    FeishuGroup::skill)),
            List.of(
                new ResourceSpec(
                    SKILL_URI,
                    "SKILL.md",
                    "The feishu-doc skill: Feishu documents, sheets and bases through the Feishu CLI.",
                    "text/markdown",
                    FeishuGroup::skill)))
        .withInstructions(
            "feishu: feishu_send_file sends a file into this session's Feishu chat (or into another chat"
                + " the agent server allows). Documents, sheets and bases are not tools: they are"
                + " worked on with the official Feishu CLI, as the feishu-doc prompt says.");
  }

  /** The {@code feishu-doc} skill, as served. */
  public static String skill() {
    try (InputStream in = FeishuGroup.class.getResourceAsStream("feishu-doc.md")) {
      if (in == null) {
        throw new IllegalStateException("feishu-doc.md is missing from the program");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ToolSpec sendFile(AgentServerClient agentServer) {
    return ToolSpec.builder(SEND_FILE, call -> send(agentServer, call))
        .title("Send a file to a Feishu chat")
        .description(
            "Uploads one file (at most 30 MB) and sends it into this session's Feishu chat, or"
                + " into channel when given (a chat the agent server allows), after the title as"
                + " a message when given. With device, the file is read on that remote device."
                + " The answer names the file and its size, never its content.")
        .input(
            Schema.object()
                .required(
                    "file_path",
                    Schema.string(
                        "The file (relative to the working directory, or absolute).",
                        1,
                        ChatFile.MAX_PATH))
                .optional(
                    "file_name",
                    Schema.string(
                        "The name shown in Feishu (default: the path's last part).",
                        1,
                        ChatFile.MAX_FILE_NAME))
                .optional(
                    "title", Schema.string("A message sent before the file.", 1, Feishu.MAX_TITLE))
                .optional(
                    "channel",
                    Schema.string(
                        "The chat to send to (oc_..., or feishu:oc_...; default: this session's"
                            + " chat).",
                        1,
                        Feishu.MAX_CHANNEL))
                .optional(
                    "device",
                    Schema.string(
                        "A remote device to read the file on (see remote_devices); file_path is"
                            + " then an absolute path on that device.",
                        1,
                        ChatFile.MAX_DEVICE))
                .build())
        .output(
            Schema.object()
                .required("file_key", Schema.string("Feishu's key of the file."))
                .required("chat", Schema.string("The chat it went to."))
                .required("name", Schema.string("Its name in Feishu."))
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
          Feishu.Codes.NOT_FEISHU,
          "Files go to a Feishu session's chat, and this MCP server runs outside a session"
              + " (CORTEX_SESSION_ID is not set).");
    }
    Feishu.SendFile request;
    try {
      request =
          new Feishu.SendFile(
              session,
              args.filePath(),
              args.fileName(),
              args.title(),
              args.channel(),
              args.device());
    } catch (Sessions.BadRequest e) {
      throw new ToolException(ErrorCodes.INVALID_ARGUMENT, e.getMessage());
    }
    Feishu.Sent sent =
        agentServer.post(
            Feishu.SEND_FILE, request, Feishu.Sent.class, REQUEST, call.context().cancellation());
    return new Result(
        sent.fileKey(),
        sent.chat(),
        sent.name(),
        sent.size(),
        "Sent "
            + sent.name()
            + " ("
            + sent.size()
            + " bytes) to the Feishu chat "
            + sent.chat()
            + ".");
  }
}
