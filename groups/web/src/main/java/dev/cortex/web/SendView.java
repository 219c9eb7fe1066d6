package dev.cortex.web;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.session.Web;

/** {@code send_view}: a live HTML view in the chat, rendered in a sandboxed frame. */
final class SendView {
  static final String NAME = "send_view";

  private SendView() {}

  record Arguments(
      String title, String html, String filePath, String caption, Integer height, String width) {}

  record Result(String attachment, String message) {}

  static ToolSpec spec(Webhook webhook) {
    return ToolSpec.builder(NAME, call -> handle(webhook, call))
        .title("Show an HTML view")
        .description(
            "Renders an HTML page inline in the web chat as a live card: give html (at most 256"
                + " KiB) or file_path of an .html file you wrote (at most 2 MiB, inside the"
                + " working directory). The page runs in a sandboxed frame with scripts but in an"
                + " opaque origin: it cannot reach the workbench, its cookies or the Cortex API;"
                + " it may load libraries and data over https.")
        .input(
            Schema.object()
                .required("title", Schema.string("The card's title.", 1, Web.MAX_VIEW_TITLE))
                .optional("html", Schema.string("The page's HTML; or use file_path."))
                .optional(
                    "file_path",
                    Schema.string(
                        "An .html file, relative to the working directory.", 1, Web.MAX_PATH))
                .optional("caption", Schema.string("A caption.", 0, Web.MAX_CAPTION))
                .optional(
                    "height",
                    Schema.integer(
                        "The card's height in pixels, 160 to 900 (default 360).",
                        Web.MIN_HEIGHT,
                        Web.MAX_HEIGHT))
                .optional(
                    "width",
                    Schema.enumOf("The card's width (default wide).", "narrow", "wide", "full"))
                .build())
        .output(
            Schema.object()
                .required("attachment", Schema.string("The view's attachment id."))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, false, false, false))
        .build();
  }

  private static Result handle(Webhook webhook, ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    Web.SendView request =
        Webhook.request(
            call,
            session ->
                new Web.SendView(
                    session,
                    args.title(),
                    args.html(),
                    args.filePath(),
                    args.caption(),
                    args.height(),
                    args.width()));
    Web.Sent sent = webhook.post(call, Web.SEND_VIEW, request, Web.Sent.class);
    return new Result(sent.attachment(), "The view \"" + request.title() + "\" is shown.");
  }
}
