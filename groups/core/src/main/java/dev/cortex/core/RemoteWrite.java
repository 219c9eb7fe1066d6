package dev.cortex.core;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Actions;
import java.time.Duration;
import java.util.List;

/** {@code remote_write} and {@code remote_edit}: change files on a remote device. */
final class RemoteWrite {
  static final String WRITE = "remote_write";
  static final String EDIT = "remote_edit";

  private final Remote remote;

  RemoteWrite(Remote remote) {
    this.remote = remote;
  }

  record WriteArguments(String device, String filePath, String content) {}

  record EditArguments(
      String device, String filePath, String oldString, String newString, Boolean replaceAll) {}

  record Written(
      String device,
      String filePath,
      boolean created,
      long bytes,
      String lineEndings,
      List<AgentsNote> agentsMd) {}

  record Edited(
      String device,
      String filePath,
      int replacements,
      String lineEndings,
      List<AgentsNote> agentsMd) {}

  private static java.util.Map<String, Object> filePath() {
    return Schema.string(
        "Absolute path of the file on the device. '..' is resolved as the shell resolves it:"
            + " after a symbolic link to a folder, it leads to the parent of the link's target.",
        1,
        4096);
  }

  ToolSpec write() {
    return ToolSpec.builder(WRITE, this::handleWrite)
        .title("Write a file on a remote device")
        .description(
            "Writes a whole file on a remote device, creating missing folders, and replaces the"
                + " file if it exists (keeping its permissions). A file that used CRLF line endings"
                + " keeps them when the content has plain LF. To change part of a file use"
                + " remote_edit. The first time a file is touched in a session, the AGENTS.md files"
                + " that apply to it come with the result: follow them.")
        .input(
            Schema.object()
                .required("device", Remote.deviceSchema())
                .required("file_path", filePath())
                .required(
                    "content", Schema.string("The file's whole new content (may be empty).", 0, -1))
                .build())
        .output(
            Schema.object()
                .required("device", Schema.string("The device."))
                .required("file_path", Schema.string("The file."))
                .required("created", Schema.bool("True when the file did not exist before."))
                .required("bytes", Schema.integer("Bytes written."))
                .required(
                    "line_endings", Schema.enumOf("The file's line endings now.", "lf", "crlf"))
                .required("agents_md", AgentsNote.schema())
                .build())
        .hints(new ToolHints(false, true, true, true))
        .blocking()
        .build();
  }

  ToolSpec edit() {
    return ToolSpec.builder(EDIT, this::handleEdit)
        .title("Edit a file on a remote device")
        .description(
            "Replaces old_string by new_string in a file on a remote device. old_string must occur"
                + " exactly once unless replace_all is true (then every occurrence changes); copy"
                + " it from the file exactly, white space included (remote_read shows line numbers"
                + " first: leave them out). A CRLF file keeps its line endings. Fails with"
                + " EDIT_MISMATCH, changing nothing, when old_string is missing or not unique.")
        .input(
            Schema.object()
                .required("device", Remote.deviceSchema())
                .required("file_path", filePath())
                .required(
                    "old_string",
                    Schema.string(
                        "The exact text to replace, white space and line breaks included, copied"
                            + " from the file (without remote_read's line numbers).",
                        1,
                        -1))
                .required(
                    "new_string",
                    Schema.string("The text to put in its place (may be empty).", 0, -1))
                .optional(
                    "replace_all",
                    Schema.withDefault(
                        Schema.bool("Replace every occurrence, not just one."), false))
                .build())
        .output(
            Schema.object()
                .required("device", Schema.string("The device."))
                .required("file_path", Schema.string("The file."))
                .required("replacements", Schema.integer("How many occurrences were replaced."))
                .required("line_endings", Schema.enumOf("The file's line endings.", "lf", "crlf"))
                .required("agents_md", AgentsNote.schema())
                .build())
        .hints(new ToolHints(false, true, false, true))
        .blocking()
        .build();
  }

  private Written handleWrite(ToolCall call) {
    WriteArguments args = call.arguments(WriteArguments.class);
    Actions.WriteResult result =
        remote.run(
            call,
            args.device(),
            Action.WRITE,
            new Actions.Write(args.filePath(), args.content(), true),
            Duration.ofSeconds(60),
            Actions.WriteResult.class);
    return new Written(
        args.device(),
        args.filePath(),
        result.created(),
        result.bytes(),
        result.lineEndings(),
        AgentsNote.unseen(call, args.device(), result.agentsMd()));
  }

  private Edited handleEdit(ToolCall call) {
    EditArguments args = call.arguments(EditArguments.class);
    Actions.EditResult result =
        remote.run(
            call,
            args.device(),
            Action.EDIT,
            new Actions.Edit(
                args.filePath(),
                args.oldString(),
                args.newString(),
                Boolean.TRUE.equals(args.replaceAll()),
                true),
            Duration.ofSeconds(60),
            Actions.EditResult.class);
    return new Edited(
        args.device(),
        args.filePath(),
        result.replacements(),
        result.lineEndings(),
        AgentsNote.unseen(call, args.device(), result.agentsMd()));
  }
}
