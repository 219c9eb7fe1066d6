package dev.cortex.core;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.Spill;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolSpec;
import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Actions;
import java.time.Duration;

/** {@code remote_glob} and {@code remote_grep}: find files and search them on a remote device. */
final class RemoteSearch {
  static final String GLOB = "remote_glob";
  static final String GREP = "remote_grep";
  static final int GLOB_SPILL_CHARS = 100_000;
  static final int GREP_SPILL_CHARS = 20_000;

  private final Remote remote;

  RemoteSearch(Remote remote) {
    this.remote = remote;
  }

  record GlobArguments(String device, String pattern, String path) {}

  record GlobResult(
      String device, String root, int count, boolean truncated, Spill.SpillableText files) {}

  record GrepArguments(
      String device,
      String pattern,
      String path,
      String glob,
      String type,
      String outputMode,
      @JsonProperty("-A") Integer after,
      @JsonProperty("-B") Integer before,
      @JsonProperty("-C") Integer c,
      Integer context,
      @JsonProperty("-i") Boolean ignoreCase,
      @JsonProperty("-n") Boolean lineNumbers,
      Integer headLimit,
      Integer offset,
      Boolean multiline) {}

  record GrepResult(
      String device,
      String engine,
      String mode,
      int count,
      boolean truncated,
      Integer appliedLimit,
      Integer appliedOffset,
      Spill.SpillableText output) {}

  private static java.util.Map<String, Object> path(String what) {
    return Schema.string(
        what + " (absolute; default: the home folder of the device's cortex client user).",
        1,
        4096);
  }

  ToolSpec glob() {
    return ToolSpec.builder(GLOB, this::handleGlob)
        .title("Find files on a remote device")
        .description(
            "Finds files on a remote device whose path under path matches a glob pattern (**, *, ?,"
                + " [abc], {a,b}; '**/' also matches at the top), most recently modified first, as"
                + " absolute paths, one per line. Version-control and dependency folders (.git,"
                + " node_modules, .venv, vendor, ...) are skipped; at most "
                + Actions.MAX_GLOB_RESULTS
                + " paths. A list over "
                + GLOB_SPILL_CHARS
                + " characters is saved under $CORTEX_HOME/tmp/tool-results/ with a 2 KB preview."
                + " To search file contents use remote_grep.")
        .input(
            Schema.object()
                .required("device", Remote.deviceSchema())
                .required(
                    "pattern",
                    Schema.withExamples(
                        Schema.string("The glob to match paths against.", 1, 1000),
                        "**/*.py",
                        "src/**/*.{ts,tsx}"))
                .optional("path", path("The folder to search under"))
                .build())
        .output(
            Schema.object()
                .required("device", Schema.string("The device."))
                .required("root", Schema.string("The folder searched."))
                .required("count", Schema.integer("Paths found (up to the cap)."))
                .required(
                    "truncated", Schema.bool("True when more paths matched than were returned."))
                .required("files", Spill.SpillableText.schema("The paths, one per line."))
                .build())
        .hints(new ToolHints(true, false, true, true))
        .spillLimit(GLOB_SPILL_CHARS)
        .blocking()
        .build();
  }

  ToolSpec grep() {
    return ToolSpec.builder(GREP, this::handleGrep)
        .title("Search file contents on a remote device")
        .description(
            "Searches file contents on a remote device with a regular expression, using ripgrep"
                + " when the device has it (honouring .gitignore) and an equivalent search of the"
                + " cortex client otherwise (skipping hidden, binary, version-control and"
                + " dependency files). output_mode: files_with_matches (default: paths, newest"
                + " first), count (path:matching lines), or content (path:line:text, with -A/-B/-C"
                + " context lines as path-line-text and -- between groups; -n on by default)."
                + " Filter with glob (e.g. '*.{ts,tsx}', '!*.min.js') or type (js, py, rust, go,"
                + " java, ...). offset and head_limit page through the entries. Output over "
                + GREP_SPILL_CHARS
                + " characters is saved under $CORTEX_HOME/tmp/tool-results/ with a 2 KB preview.")
        .input(
            Schema.object()
                .required("device", Remote.deviceSchema())
                .required(
                    "pattern",
                    Schema.string(
                        "The regular expression to find, in ripgrep's (Rust regex) syntax, e.g."
                            + " 'fn\\s+main' or 'TODO|FIXME'; literal braces and parentheses need a"
                            + " backslash.",
                        1,
                        10_000))
                .optional("path", path("The file or folder to search"))
                .optional(
                    "glob",
                    Schema.string(
                        "Only files matching this glob (several: separated by spaces).", 1, 1000))
                .optional(
                    "type",
                    Schema.withExamples(
                        Schema.pattern(
                            "Only files of this type, as ripgrep names it.",
                            "^[A-Za-z0-9_+-]{1,32}$"),
                        "py",
                        "java"))
                .optional(
                    "output_mode",
                    Schema.withDefault(
                        Schema.enumOf(
                            "What to return: files_with_matches (matching paths, newest first),"
                                + " content (path:line:text of each match) or count"
                                + " (path:matches).",
                            "files_with_matches",
                            "content",
                            "count"),
                        "files_with_matches"))
                .optional("-A", Schema.integer("content: lines after each match.", 0, 1000))
                .optional("-B", Schema.integer("content: lines before each match.", 0, 1000))
                .optional(
                    "-C", Schema.integer("content: lines before and after each match.", 0, 1000))
                .optional(
                    "context",
                    Schema.integer("content: lines before and after each match (as -C).", 0, 1000))
                .optional(
                    "-i",
                    Schema.withDefault(Schema.bool("Match regardless of letter case."), false))
                .optional(
                    "-n", Schema.withDefault(Schema.bool("content: show line numbers."), true))
                .optional(
                    "head_limit",
                    Schema.integer(
                        "Return at most this many entries (lines, files or counts).", 1, 1_000_000))
                .optional("offset", Schema.integer("Skip this many entries first.", 0, 1_000_000))
                .optional(
                    "multiline", Schema.bool("Let the pattern span lines ('.' matches newlines)."))
                .build())
        .output(
            Schema.object()
                .required("device", Schema.string("The device."))
                .required("engine", Schema.enumOf("What searched.", "ripgrep", "java"))
                .required(
                    "mode",
                    Schema.enumOf("The output mode.", "files_with_matches", "content", "count"))
                .required(
                    "count",
                    Schema.integer(
                        "Files (files_with_matches), lines shown (content) or matching lines (count), before paging."))
                .required("truncated", Schema.bool("True when the device cut a very large output."))
                .required(
                    "applied_limit",
                    Schema.nullable(
                        Schema.integer("The head_limit that cut the entries, if it did.")))
                .required(
                    "applied_offset",
                    Schema.nullable(Schema.integer("The offset applied, if any.")))
                .required("output", Spill.SpillableText.schema("The entries, one per line."))
                .build())
        .hints(new ToolHints(true, false, true, true))
        .spillLimit(GREP_SPILL_CHARS)
        .blocking()
        .build();
  }

  private GlobResult handleGlob(ToolCall call) {
    GlobArguments args = call.arguments(GlobArguments.class);
    Actions.GlobResult result =
        remote.run(
            call,
            args.device(),
            Action.GLOB,
            new Actions.Glob(args.pattern(), args.path()),
            Duration.ofSeconds(120),
            Actions.GlobResult.class);
    String text = String.join("\n", result.files());
    return new GlobResult(
        args.device(),
        result.root(),
        result.files().size(),
        result.truncated(),
        call.fitText(text));
  }

  private GrepResult handleGrep(ToolCall call) {
    GrepArguments args = call.arguments(GrepArguments.class);
    if (args.context() != null && args.c() != null && !args.context().equals(args.c())) {
      throw dev.cortex.mcp.tool.ToolException.invalidArgument(
          "-C and context are the same setting; give one.");
    }
    Actions.GrepResult result =
        remote.run(
            call,
            args.device(),
            Action.GREP,
            new Actions.Grep(
                args.pattern(),
                args.path(),
                args.glob(),
                args.type(),
                args.outputMode(),
                args.after(),
                args.before(),
                args.context() != null ? args.context() : args.c(),
                Boolean.TRUE.equals(args.ignoreCase()),
                args.lineNumbers(),
                args.headLimit(),
                args.offset(),
                Boolean.TRUE.equals(args.multiline())),
            Duration.ofSeconds(330),
            Actions.GrepResult.class);
    return new GrepResult(
        args.device(),
        result.engine(),
        result.mode(),
        result.count(),
        result.truncated(),
        result.appliedLimit(),
        result.appliedOffset(),
        call.fitText(result.output()));
  }
}
