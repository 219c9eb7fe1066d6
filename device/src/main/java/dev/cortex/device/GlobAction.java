package dev.cortex.device;

import dev.cortex.base.Deadline;
import dev.cortex.protocol.hub.Actions;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Finds files by glob pattern ({@code **}/{@code *}/{@code ?}/{@code [..]}/{@code {a,b}}) under a
 * directory, most recently modified first. {@code **}/ also matches at the top, as shell and node
 * globs do. A walk still going at the command's deadline stops there, with what it found.
 */
final class GlobAction {
  private final Path home;

  GlobAction(Path home) {
    this.home = home;
  }

  Actions.GlobResult glob(Actions.Glob params, Deadline deadline) throws ActionException {
    if (params.pattern() == null || params.pattern().isBlank()) {
      throw ActionException.invalid("pattern is required, e.g. '**/*.py'.");
    }
    Path root = params.path() == null ? home : Paths.absolute(params.path(), "path");
    if (!Files.isDirectory(root)) {
      throw Files.exists(root)
          ? ActionException.invalid(root + " is not a directory.")
          : Paths.failure(root, new java.nio.file.NoSuchFileException(root.toString()));
    }
    String pattern = params.pattern();
    if (pattern.startsWith("/")) {
      Path absolute = Path.of(pattern);
      if (absolute.startsWith(root)) {
        pattern = root.relativize(absolute).toString();
      } else {
        throw ActionException.invalid(
            "pattern '"
                + pattern
                + "' is absolute and outside path "
                + root
                + "; make it relative.");
      }
    }
    List<PathMatcher> matchers = new ArrayList<>();
    try {
      matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern));
      if (pattern.startsWith("**/")) {
        matchers.add(FileSystems.getDefault().getPathMatcher("glob:" + pattern.substring(3)));
      }
    } catch (IllegalArgumentException e) {
      throw ActionException.invalid("pattern '" + params.pattern() + "' is not a valid glob.");
    }
    record Found(Path path, FileTime modified) {}
    List<Found> found = new ArrayList<>();
    boolean[] truncated = {false};
    try {
      boolean stopped =
          Walk.files(
              root,
              false,
              (file, attrs) -> {
                if (deadline.expired()) {
                  return false;
                }
                Path relative = root.relativize(file);
                for (PathMatcher matcher : matchers) {
                  if (matcher.matches(relative)) {
                    found.add(new Found(file, attrs.lastModifiedTime()));
                    break;
                  }
                }
                if (found.size() > Actions.MAX_GLOB_RESULTS) {
                  truncated[0] = true;
                  return false;
                }
                return true;
              });
      truncated[0] |= stopped;
    } catch (IOException e) {
      throw Paths.failure(root, e);
    }
    found.sort(
        Comparator.comparing(Found::modified).reversed().thenComparing(f -> f.path().toString()));
    List<String> files =
        found.stream().limit(Actions.MAX_GLOB_RESULTS).map(f -> f.path().toString()).toList();
    return new Actions.GlobResult(root.toString(), files, truncated[0]);
  }
}
