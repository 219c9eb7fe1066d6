package dev.cortex.device;

import dev.cortex.base.Deadline;
import dev.cortex.protocol.hub.Actions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The search of devices without ripgrep, in ripgrep's modes and output formats: {@code path} per
 * file, {@code path:count}, or {@code path:line:text} for matches and {@code path-line-text} for
 * context, with {@code --} between context groups that are not adjacent. Hidden files, binary files
 * and version-control and dependency folders are passed over; the regular expressions are Java's,
 * which agree with ripgrep's for everyday patterns.
 */
final class JavaSearch {
  /** Files larger than this are passed over. */
  static final long MAX_FILE_BYTES = 32L * 1024 * 1024;

  /** File types as ripgrep names them: the extensions (or names) of each. */
  static final Map<String, List<String>> TYPES = types();

  private final Actions.Grep params;
  private final String mode;
  private final Path root;
  private final Deadline deadline;

  /**
   * @param deadline when the search gives up
   */
  JavaSearch(Actions.Grep params, String mode, Path root, Deadline deadline) {
    this.params = params;
    this.mode = mode;
    this.root = root;
    this.deadline = deadline;
  }

  private static Map<String, List<String>> types() {
    Map<String, List<String>> types = new TreeMap<>();
    types.put("c", List.of("*.c", "*.h"));
    types.put("cpp", List.of("*.cpp", "*.cc", "*.cxx", "*.hpp", "*.hh", "*.hxx", "*.h"));
    types.put("cs", List.of("*.cs"));
    types.put("css", List.of("*.css", "*.scss"));
    types.put("go", List.of("*.go"));
    types.put("html", List.of("*.html", "*.htm"));
    types.put("java", List.of("*.java"));
    types.put("js", List.of("*.js", "*.jsx", "*.mjs", "*.cjs"));
    types.put("json", List.of("*.json"));
    types.put("kotlin", List.of("*.kt", "*.kts"));
    types.put("md", List.of("*.md", "*.markdown"));
    types.put("php", List.of("*.php"));
    types.put("py", List.of("*.py", "*.pyi"));
    types.put("rb", List.of("*.rb"));
    types.put("rust", List.of("*.rs"));
    types.put("scala", List.of("*.scala"));
    types.put("sh", List.of("*.sh", "*.bash", "*.zsh"));
    types.put("sql", List.of("*.sql"));
    types.put("swift", List.of("*.swift"));
    types.put("toml", List.of("*.toml"));
    types.put("ts", List.of("*.ts", "*.tsx", "*.mts", "*.cts"));
    types.put("txt", List.of("*.txt"));
    types.put("xml", List.of("*.xml"));
    types.put("yaml", List.of("*.yaml", "*.yml"));
    return java.util.Collections.unmodifiableMap(types);
  }

  /** Splits a glob parameter such as {@code *.{ts,tsx}} or {@code *.js *.ts} into globs. */
  static List<String> splitGlobs(String glob) {
    List<String> globs = new ArrayList<>();
    for (String part : glob.trim().split("\\s+")) {
      if (!part.isEmpty()) {
        globs.add(part);
      }
    }
    return globs;
  }

  /** The output's entries, or null when the deadline fell first. */
  List<String> run() throws ActionException {
    Pattern pattern = compile();
    List<PathMatcher> includes = new ArrayList<>();
    List<PathMatcher> excludes = new ArrayList<>();
    if (params.glob() != null && !params.glob().isBlank()) {
      for (String glob : splitGlobs(params.glob())) {
        boolean negated = glob.startsWith("!");
        PathMatcher matcher = matcher(negated ? glob.substring(1) : glob);
        (negated ? excludes : includes).add(matcher);
      }
    }
    List<PathMatcher> typeMatchers = new ArrayList<>();
    if (params.type() != null && !params.type().isBlank()) {
      List<String> globs = TYPES.get(params.type());
      if (globs == null) {
        throw ActionException.invalid(
            "Unknown type '"
                + params.type()
                + "'. Known types: "
                + String.join(", ", TYPES.keySet())
                + ".");
      }
      globs.forEach(g -> typeMatchers.add(matcher(g)));
    }
    record Hit(Path file, FileTime modified, List<String> lines) {}
    List<Hit> hits = new ArrayList<>();
    boolean[] outOfTime = {false};
    try {
      if (Files.isRegularFile(root)) {
        List<String> lines = search(root, pattern);
        if (lines != null) {
          hits.add(new Hit(root, Files.getLastModifiedTime(root), lines));
        }
      } else {
        Walk.files(
            root,
            true,
            (file, attrs) -> {
              if (deadline.expired()) {
                outOfTime[0] = true;
                return false;
              }
              if (!selected(root.relativize(file), includes, excludes, typeMatchers)
                  || attrs.size() > MAX_FILE_BYTES) {
                return true;
              }
              List<String> lines = search(file, pattern);
              if (lines != null) {
                hits.add(new Hit(file, attrs.lastModifiedTime(), lines));
              }
              return true;
            });
      }
    } catch (IOException e) {
      throw Paths.failure(root, e);
    }
    if (outOfTime[0]) {
      return null;
    }
    if (mode.equals("files_with_matches")) {
      hits.sort(Comparator.comparing(Hit::modified).reversed());
    } else {
      hits.sort(Comparator.comparing(h -> h.file().toString()));
    }
    List<String> entries = new ArrayList<>();
    for (Hit hit : hits) {
      entries.addAll(hit.lines());
    }
    return entries;
  }

  private Pattern compile() throws ActionException {
    int flags = 0;
    if (params.ignoreCase()) {
      flags |= Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;
    }
    if (params.multiline()) {
      flags |= Pattern.MULTILINE | Pattern.DOTALL;
    }
    try {
      return Pattern.compile(params.pattern(), flags);
    } catch (PatternSyntaxException e) {
      throw ActionException.invalid(
          "pattern is not a valid regular expression: " + e.getDescription() + ".");
    }
  }

  private static PathMatcher matcher(String glob) {
    return FileSystems.getDefault().getPathMatcher("glob:" + glob);
  }

  /** A glob without a slash matches the file name, as in ripgrep; one with a slash, the path. */
  private static boolean selected(
      Path relative,
      List<PathMatcher> includes,
      List<PathMatcher> excludes,
      List<PathMatcher> types) {
    Path name = relative.getFileName();
    java.util.function.Predicate<PathMatcher> matches = m -> m.matches(name) || m.matches(relative);
    if (excludes.stream().anyMatch(matches)) {
      return false;
    }
    if (!includes.isEmpty() && includes.stream().noneMatch(matches)) {
      return false;
    }
    return types.isEmpty() || types.stream().anyMatch(matches);
  }

  /** The output entries of one file, or null when it has no match (or is binary). */
  private List<String> search(Path file, Pattern pattern) {
    String text;
    try (InputStream in = Files.newInputStream(file)) {
      byte[] bytes = in.readAllBytes();
      for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
        if (bytes[i] == 0) {
          return null;
        }
      }
      text = new String(bytes, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return null;
    }
    String[] lines = text.split("\n", -1);
    int count =
        lines.length > 0 && lines[lines.length - 1].isEmpty() ? lines.length - 1 : lines.length;
    Set<Integer> matched = new TreeSet<>();
    if (params.multiline()) {
      int[] starts = lineStarts(text);
      Matcher m = pattern.matcher(text);
      while (m.find()) {
        int first = lineOf(starts, m.start());
        int last = lineOf(starts, Math.max(m.start(), m.end() - 1));
        for (int line = first; line <= last && line < count; line++) {
          matched.add(line);
        }
        if (m.end() == m.start() && m.end() >= text.length()) {
          break;
        }
      }
    } else {
      for (int i = 0; i < count; i++) {
        if (pattern.matcher(strip(lines[i])).find()) {
          matched.add(i);
        }
      }
    }
    if (matched.isEmpty()) {
      return null;
    }
    String path = file.toString();
    return switch (mode) {
      case "files_with_matches" -> List.of(path);
      case "count" -> List.of(path + ":" + matched.size());
      default -> content(path, lines, count, matched);
    };
  }

  private List<String> content(String path, String[] lines, int count, Set<Integer> matched) {
    int before =
        params.before() != null ? params.before() : params.context() != null ? params.context() : 0;
    int after =
        params.after() != null ? params.after() : params.context() != null ? params.context() : 0;
    boolean numbers = params.lineNumbers() == null || params.lineNumbers();
    Set<Integer> shown = new TreeSet<>();
    for (int line : matched) {
      for (int i = Math.max(0, line - before); i <= Math.min(count - 1, line + after); i++) {
        shown.add(i);
      }
    }
    List<String> out = new ArrayList<>();
    int previous = -2;
    for (int line : shown) {
      if ((before > 0 || after > 0) && previous >= 0 && line > previous + 1) {
        out.add("--");
      }
      char separator = matched.contains(line) ? ':' : '-';
      out.add(
          path
              + separator
              + (numbers ? (line + 1) + String.valueOf(separator) : "")
              + strip(lines[line]));
      previous = line;
    }
    return out;
  }

  private static String strip(String line) {
    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
  }

  private static int[] lineStarts(String text) {
    List<Integer> starts = new ArrayList<>();
    starts.add(0);
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n') {
        starts.add(i + 1);
      }
    }
    return starts.stream().mapToInt(Integer::intValue).toArray();
  }

  private static int lineOf(int[] starts, int offset) {
    int index = java.util.Arrays.binarySearch(starts, offset);
    return index >= 0 ? index : -index - 2;
  }
}
