package dev.cortex.web;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.session.Web;

/**
 * {@code board_open}: a new board by title, or an existing one by id or slug; the session is bound
 * to it (and moved off the board it was bound to).
 */
final class BoardOpen {
  static final String NAME = "board_open";

  private BoardOpen() {}

  record Arguments(String title, String board) {}

  record Result(
      String id, String slug, String title, String dir, boolean created, String message) {}

  static ToolSpec spec(Webhook webhook) {
    return ToolSpec.builder(NAME, call -> handle(webhook, call))
        .title("Open a board")
        .description(
            "Opens the status board of a long task and binds this session to it: give title for a"
                + " new board, or board (its id or slug) for an existing one. A board is a"
                + " directory on the server with an index file BOARD.md: keep it up to date (what"
                + " is done, what is next, what blocks); the workbench shows it. A session is"
                + " bound to one board at a time.")
        .input(
            Schema.object()
                .optional("title", Schema.string("A new board's title.", 1, Web.MAX_BOARD_TITLE))
                .optional(
                    "board", Schema.string("An existing board's id or slug.", 1, Web.MAX_BOARD_REF))
                .build())
        .output(
            Schema.object()
                .required("id", Schema.string("The board's id, e.g. brd_3fa2c1d0e4b5."))
                .required("slug", Schema.string("Its slug."))
                .required("title", Schema.string("Its title."))
                .required("dir", Schema.string("Its directory, with BOARD.md."))
                .required("created", Schema.bool("Whether the board is new."))
                .required("message", Schema.string("What happened, in a sentence."))
                .build())
        .hints(new ToolHints(false, false, true, false))
        .build();
  }

  private static Result handle(Webhook webhook, ToolCall call) {
    Arguments args = call.arguments(Arguments.class);
    Web.BoardOpen request =
        Webhook.request(call, session -> new Web.BoardOpen(session, args.title(), args.board()));
    Web.BoardOpened opened = webhook.post(call, Web.BOARD_OPEN, request, Web.BoardOpened.class);
    Web.Board b = opened.board();
    return new Result(
        b.id(),
        b.slug(),
        b.title(),
        b.dir(),
        opened.created(),
        (opened.created() ? "Board " : "Bound to board ")
            + b.slug()
            + "; keep "
            + b.dir()
            + "/BOARD.md up to date.");
  }
}
