package dev.cortex.device;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.function.BiPredicate;

/**
 * Walks a directory tree for glob and the Java search, skipping version-control and dependency
 * folders (and, for search, hidden files, as ripgrep does), never following links, and stopping
 * after a bounded number of entries so that a walk of {@code /} ends.
 */
final class Walk {
  /** Folders never entered: version control, dependencies, caches. */
  static final Set<String> SKIPPED =
      Set.of(
          ".git",
          ".hg",
          ".svn",
          ".bzr",
          ".jj",
          "_darcs",
          "CVS",
          "node_modules",
          "bower_components",
          ".venv",
          "venv",
          "__pycache__",
          ".tox",
          ".mypy_cache",
          ".pytest_cache",
          ".gradle",
          ".m2",
          "vendor");

  /** Entries visited at most. */
  static final int MAX_ENTRIES = 2_000_000;

  private Walk() {}

  /**
   * Visits the regular files under {@code root} until {@code visitor} returns false.
   *
   * @param skipHidden whether files and folders whose names start with '.' are passed over
   * @return whether the walk stopped early (the visitor said so, or the entry cap was reached)
   */
  static boolean files(
      Path root, boolean skipHidden, BiPredicate<Path, BasicFileAttributes> visitor)
      throws IOException {
    boolean[] stopped = {false};
    int[] seen = {0};
    Files.walkFileTree(
        root,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            if (!dir.equals(root)) {
              String name = dir.getFileName().toString();
              if (SKIPPED.contains(name) || skipHidden && name.startsWith(".")) {
                return FileVisitResult.SKIP_SUBTREE;
              }
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
            if (++seen[0] > MAX_ENTRIES) {
              stopped[0] = true;
              return FileVisitResult.TERMINATE;
            }
            if (!attrs.isRegularFile()
                || skipHidden
                    && file.getFileName().toString().startsWith(".")
                    && !file.equals(root)) {
              return FileVisitResult.CONTINUE;
            }
            if (!visitor.test(file, attrs)) {
              stopped[0] = true;
              return FileVisitResult.TERMINATE;
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            return FileVisitResult.CONTINUE;
          }
        });
    return stopped[0];
  }
}
