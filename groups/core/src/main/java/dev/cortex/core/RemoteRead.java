package dev.cortex.core;

import dev.cortex.mcp.tool.Content;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.Spill;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolResult;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Actions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/** {@code remote_read}: a file of a remote device: text with line numbers, images, PDFs. */
final class RemoteRead {
  static final String NAME = "remote_read";

  /** Characters of text above which the text is spilled (2000 lines of 2000 characters fit). */
  static final int SPILL_CHARS = 100_000;

  private final Remote remote;

  RemoteRead(Remote remote) {
    this.remote = remote;
  }

  record Arguments(String device, String filePath, Integer offset, Integer limit) {}

  record Image(
      String mimeType, int width, int height, int sentWidth, int sentHeight, boolean scaled) {}

  record Result(
      String device,
      String filePath,
      String kind,
      long sizeBytes,
      Spill.SpillableText text,
      Integer startLine,
      Integer linesReturned,
      Integer totalLines,
      boolean linesCut,
      Image image,
      List<AgentsNote> agentsMd) {}

  ToolSpec spec() {
    return ToolSpec.builder(NAME, this::handle)
        .title("Read a file on a remote device")
        .description(
            "Reads a file on a remote device by its absolute path. Text comes back with line"
                + " numbers (cat -n style), "
                + Actions.DEFAULT_READ_LINES
                + " lines from the start unless offset (1-based line) and limit say otherwise;"
                + " lines over "
                + Actions.MAX_LINE_CHARS
                + " characters are cut. Text files over 256 KB need a limit. Images (PNG, JPEG,"
                + " GIF, WebP, told by their bytes) come back as image content, scaled down to at"
                + " most 1568 px and about 1.15 megapixels; PDFs as an embedded resource. Files"
                + " over 10 MB are refused. The first time a file is read, written or edited in a"
                + " session, the AGENTS.md files that apply to it on that device come with the"
                + " result: follow them.")
        .input(
            Schema.object()
                .required("device", Remote.deviceSchema())
                .required(
                    "file_path",
                    Schema.withExamples(
                        Schema.string(
                            "Absolute path of the file on the device. '..' is resolved as the"
                                + " shell resolves it: after a symbolic link to a folder, it leads"
                                + " to the parent of the link's target.",
                            1,
                            4096),
                        "/srv/app/main.py"))
                .optional(
                    "offset",
                    Schema.integer(
                        "The 1-based line to start at (text only).", 1, Integer.MAX_VALUE))
                .optional(
                    "limit",
                    Schema.withDefault(
                        Schema.integer("How many lines to return (text only).", 1, 100_000), 2000))
                .build())
        .output(
            Schema.object()
                .required("device", Schema.string("The device."))
                .required("file_path", Schema.string("The file."))
                .required("kind", Schema.enumOf("What the file holds.", "text", "image", "pdf"))
                .required("size_bytes", Schema.integer("The file's size."))
                .required(
                    "text",
                    Schema.nullable(Spill.SpillableText.schema("For text: the numbered lines.")))
                .required(
                    "start_line",
                    Schema.nullable(Schema.integer("For text: the first line returned.")))
                .required(
                    "lines_returned", Schema.nullable(Schema.integer("For text: how many lines.")))
                .required(
                    "total_lines", Schema.nullable(Schema.integer("For text: lines in the file.")))
                .required(
                    "lines_cut", Schema.bool("True when a line was longer than 2000 characters."))
                .required(
                    "image",
                    Schema.nullable(
                        Schema.object()
                            .description("For images: the original size and the size sent.")
                            .required("mime_type", Schema.string("The type sent."))
                            .required("width", Schema.integer("Original width (0: not decoded)."))
                            .required("height", Schema.integer("Original height."))
                            .required("sent_width", Schema.integer("Width sent."))
                            .required("sent_height", Schema.integer("Height sent."))
                            .required("scaled", Schema.bool("True when scaled down."))
                            .build()))
                .required("agents_md", AgentsNote.schema())
                .build())
        .hints(new ToolHints(true, false, true, true))
        .spillLimit(SPILL_CHARS)
        .blocking()
        .build();
  }

  private Object handle(ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    Actions.ReadResult read =
        remote.run(
            call,
            args.device(),
            Action.READ,
            new Actions.Read(args.filePath(), args.offset(), args.limit(), true),
            Duration.ofSeconds(60),
            Actions.ReadResult.class);
    List<AgentsNote> agents = AgentsNote.unseen(call, args.device(), read.agentsMd());
    if (read.kind().equals("text")) {
      return new Result(
          args.device(),
          args.filePath(),
          "text",
          read.sizeBytes(),
          call.fitText(read.text() == null ? "" : read.text()),
          read.startLine(),
          read.linesReturned(),
          read.totalLines(),
          read.linesCut(),
          null,
          agents);
    }
    byte[] bytes = Base64.getDecoder().decode(read.data());
    List<Content> content = new ArrayList<>();
    Image image = null;
    if (read.kind().equals("image")) {
      ImageFit.Fitted fitted = ImageFit.fit(bytes, read.mimeType());
      image =
          new Image(
              fitted.mimeType(),
              fitted.width(),
              fitted.height(),
              fitted.sentWidth(),
              fitted.sentHeight(),
              fitted.scaled());
      content.add(new Content.Image(fitted.mimeType(), fitted.data()));
    } else {
      content.add(
          new Content.Resource(
              "cortex-device://" + args.device() + args.filePath(), read.mimeType(), bytes));
    }
    return new ToolResult(
        new Result(
            args.device(),
            args.filePath(),
            read.kind(),
            read.sizeBytes(),
            null,
            null,
            null,
            null,
            false,
            image,
            agents),
        content);
  }
}
