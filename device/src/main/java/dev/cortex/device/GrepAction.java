package dev.cortex.device;

import dev.cortex.base.Deadline;
import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Searches file contents: with ripgrep when the device has it, else with {@link JavaSearch}, in the
 * same modes and output formats ({@code files_with_matches}, {@code count}, {@code content} with
 * context and line numbers). {@code offset} and {@code head_limit} page through the output's
 * entries (files, counts or lines). A search ends after 5 minutes, or sooner at the command's
 * deadline.
 */
final class GrepAction {
  /** Output kept of one search, in characters. */
  static final int MAX_OUTPUT_CHARS = 8 * 1024 * 1024;

  private static final Duration SEARCH_LIMIT = Duration.ofMinutes(5);

  private final Path home;
  private final String ripgrep;
  private final Map<String, String> environment;

  /**
   * @param ripgrep the {@code rg} program to use, or null to search in Java
   */
  GrepAction(Path home, String ripgrep, Map<String, String> environment) {
    this.home = home;
    this.ripgrep = ripgrep;
    this.environment = environment;
  }

  String engine() {
    return ripgrep != null ? "ripgrep" : "java";
  }

  Actions.GrepResult grep(Actions.Grep params, Deadline deadline) throws ActionException {
    if (params.pattern() == null || params.pattern().isEmpty()) {
      throw ActionException.invalid("pattern is required.");
    }
    String mode = params.outputMode() == null ? "files_with_matches" : params.outputMode();
    if (!List.of("files_with_matches", "content", "count").contains(mode)) {
      throw ActionException.invalid(
          "output_mode must be files_with_matches, content or count; got '" + mode + "'.");
    }
    Path root = params.path() == null ? home : Paths.absolute(params.path(), "path");
    if (!Files.exists(root)) {
      throw Paths.failure(root, new java.nio.file.NoSuchFileException(root.toString()));
    }
    Deadline search = deadline.atMost(SEARCH_LIMIT);
    List<String> entries =
        ripgrep != null
            ? ripgrep(params, mode, root, search)
            : new JavaSearch(params, mode, root, search).run();
    if (entries == null) {
      throw outOfTime(search.at().isBefore(deadline.at()));
    }
    int offset = params.offset() == null ? 0 : Math.max(0, params.offset());
    int limit = params.headLimit() == null || params.headLimit() <= 0 ? -1 : params.headLimit();
    List<String> page = entries.subList(Math.min(offset, entries.size()), entries.size());
    boolean limited = limit >= 0 && page.size() > limit;
    if (limited) {
      page = page.subList(0, limit);
    }
    StringBuilder out = new StringBuilder();
    boolean truncated = false;
    for (String entry : page) {
      if (out.length() + entry.length() + 1 > MAX_OUTPUT_CHARS) {
        truncated = true;
        break;
      }
      out.append(entry).append('\n');
    }
    return new Actions.GrepResult(
        engine(),
        mode,
        out.toString(),
        count(mode, entries),
        truncated,
        limited ? limit : null,
        offset > 0 ? offset : null);
  }

  private static int count(String mode, List<String> entries) {
    return switch (mode) {
      case "count" ->
          entries.stream()
              .mapToInt(
                  e -> {
                    int colon = e.lastIndexOf(':');
                    try {
                      return Integer.parseInt(e.substring(colon + 1));
                    } catch (RuntimeException ex) {
                      return 0;
                    }
                  })
              .sum();
      case "content" -> (int) entries.stream().filter(e -> !e.equals("--")).count();
      default -> entries.size();
    };
  }

  /**
   * @param searchLimit whether the search's own 5 minutes ran out, rather than the command's time
   */
  private static ActionException outOfTime(boolean searchLimit) {
    return new ActionException(
        Codes.UNAVAILABLE,
        (searchLimit
                ? "The search took longer than 5 minutes"
                : "The search did not finish in the command's time")
            + "; narrow path, glob or type.");
  }

  /** The entries ripgrep printed, or null when it ran out of time. */
  private List<String> ripgrep(Actions.Grep params, String mode, Path root, Deadline search)
      throws ActionException {
    List<String> command = new ArrayList<>(List.of(ripgrep, "--no-config", "--color=never"));
    switch (mode) {
      case "files_with_matches" ->
          command.addAll(List.of("--files-with-matches", "--sortr=modified"));
      case "count" -> command.addAll(List.of("--count", "--with-filename", "--sort=path"));
      default -> {
        command.addAll(List.of("--no-heading", "--with-filename", "--sort=path"));
        if (params.lineNumbers() == null || params.lineNumbers()) {
          command.add("--line-number");
        }
        addContext(command, params);
      }
    }
    if (params.ignoreCase()) {
      command.add("--ignore-case");
    }
    if (params.multiline()) {
      command.addAll(List.of("--multiline", "--multiline-dotall"));
    }
    if (params.glob() != null && !params.glob().isBlank()) {
      for (String glob : JavaSearch.splitGlobs(params.glob())) {
        command.addAll(List.of("--glob", glob));
      }
    }
    if (params.type() != null && !params.type().isBlank()) {
      command.addAll(List.of("--type", params.type()));
    }
    command.addAll(List.of("--regexp", params.pattern(), "--", root.toString()));
    if (search.expired()) {
      return null;
    }
    ProcessResult result;
    try {
      result =
          Processes.start(
                  ProcessSpec.builder(command, environment)
                      .timeout(search.remaining())
                      .capture(MAX_OUTPUT_CHARS, 0)
                      .build(),
                  dev.cortex.process.OutputListener.NONE)
              .await();
    } catch (IOException e) {
      throw new ActionException(Codes.INTERNAL, "ripgrep could not be started: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ActionException(Codes.CANCELLED, "The search was cancelled.");
    }
    if (result.timedOut()) {
      return null;
    }
    if (result.exitCode() == 2 && result.stdout().totalBytes() == 0) {
      String error = result.stderr().text(StandardCharsets.UTF_8).strip();
      throw ActionException.invalid("ripgrep refused the search: " + firstLines(error));
    }
    String text = result.stdout().text(StandardCharsets.UTF_8);
    List<String> entries = new ArrayList<>();
    for (String line : text.split("\n")) {
      if (!line.isEmpty()) {
        entries.add(line);
      }
    }
    return entries;
  }

  private static void addContext(List<String> command, Actions.Grep params) {
    if (params.context() != null) {
      command.addAll(List.of("--context", Integer.toString(params.context())));
    }
    if (params.after() != null) {
      command.addAll(List.of("--after-context", Integer.toString(params.after())));
    }
    if (params.before() != null) {
      command.addAll(List.of("--before-context", Integer.toString(params.before())));
    }
  }

  private static String firstLines(String text) {
    String[] lines = text.split("\n");
    return String.join(" ", java.util.Arrays.copyOf(lines, Math.min(lines.length, 6)));
  }
}
