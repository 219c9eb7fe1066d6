package dev.cortex.web;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.session.Web;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** {@code send_file}: one file, or several sharing one caption, into the chat as cards. */
final class SendFile {
  static final String NAME = "send_file";

  private SendFile() {}

  record FileArgument(String filePath, String fileName) {}

  record Arguments(
      String filePath, List<FileArgument> files, String fileName, String caption, String device) {}

  record Result(String attachment, List<String> files, String message) {}

  static ToolSpec spec(Webhook webhook) {
    Map<String, Object> file =
        Schema.object()
            .description("A file to send.")
            .required(
                "file_path",
                Schema.string(
                    "Its path (relative to the working directory, or absolute).", 1, Web.MAX_PATH))
            .optional(
                "file_name",
                Schema.string(
                    "The name the person sees (default: the path's last part).",
                    1,
                    Web.MAX_FILE_NAME))
            .build();
    return ToolSpec.builder(NAME, call -> handle(webhook, call))
        .title("Send files to the person")
        .description(
            "Sends one file (file_path) or several as one message (files, 1 to 20) into the web"
                + " chat, shown as download cards; images and videos are previewed inline. Each"
                + " file is at most 100 MB; the server copies it, so you may change or delete it"
                + " afterwards. With device, the files are read on that remote device. The answer"
                + " names the files and their sizes, never their content.")
        .input(
            Schema.object()
                .optional(
                    "file_path",
                    Schema.string(
                        "One file (relative to the working directory, or absolute); or use"
                            + " files.",
                        1,
                        Web.MAX_PATH))
                .optional(
                    "files", Schema.array("Several files, 1 to 20.", file, 1, Web.MAX_FILES, false))
                .optional(
                    "file_name",
                    Schema.string(
                        "With file_path: the name the person sees.", 1, Web.MAX_FILE_NAME))
                .optional(
                    "caption", Schema.string("A caption shown with the files.", 0, Web.MAX_CAPTION))
                .optional(
                    "device",
                    Schema.string(
                        "A remote device to read the files on (see remote_devices).",
                        1,
                        Web.MAX_DEVICE))
                .build())
        .output(
            Schema.object()
                .required("attachment", Schema.string("The message's attachment id."))
                .required(
                    "files",
                    Schema.array(
                        "The files as delivered: name and size.",
                        Schema.string("A file."),
                        0,
                        0,
                        false))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, false, false, false))
        .build();
  }

  private static Result handle(Webhook webhook, ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    Web.SendFile request =
        Webhook.request(
            call,
            session ->
                new Web.SendFile(
                    session,
                    args.filePath(),
                    args.files() == null
                        ? null
                        : args.files().stream()
                            .map(
                                f -> f == null ? null : new Web.FileRef(f.filePath(), f.fileName()))
                            .toList(),
                    args.fileName(),
                    args.caption(),
                    args.device()));
    Web.Sent sent = webhook.post(call, Web.SEND_FILE, request, Web.Sent.class);
    List<String> files =
        sent.files().stream().map(f -> f.name() + " (" + size(f.size()) + ")").toList();
    return new Result(
        sent.attachment(),
        files,
        (files.size() == 1 ? "Sent " : "Sent " + files.size() + " files: ")
            + files.stream().collect(Collectors.joining(", "))
            + ".");
  }

  static String size(long bytes) {
    if (bytes < 1024) {
      return bytes + " B";
    }
    if (bytes < 1024 * 1024) {
      return String.format(java.util.Locale.ROOT, "%.1f KiB", bytes / 1024.0);
    }
    return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024));
  }
}
