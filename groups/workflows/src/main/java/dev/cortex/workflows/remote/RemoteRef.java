package dev.cortex.workflows.remote;

import dev.cortex.mcp.tool.ToolException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A workflow reference into a Git repository: {@code HOST/OWNER/REPO[/SUBPATH][@REF]}, {@code
 * OWNER/REPO[@REF]} (on github.com), or {@code git+URL[//SUBPATH][@REF]} for a {@code file://},
 * {@code https://}, {@code ssh://} or {@code user@host:path} URL.
 *
 * @param written the reference as the caller wrote it
 * @param repository the URL the repository is fetched from
 * @param subpath the manifest (or a directory holding {@code workflow.yaml}) in the repository;
 *     null for the repository's root
 * @param revision what {@code @REF} named; null for the highest {@code vX.Y.Z} tag
 */
public record RemoteRef(String written, String repository, String subpath, String revision) {
  private static final String SEGMENT = "[A-Za-z0-9_][A-Za-z0-9_.-]*";
  private static final Pattern HOST_FORM =
      Pattern.compile(
          "([A-Za-z0-9-]+(?:\\.[A-Za-z0-9-]+)+(?::[0-9]{1,5})?)/("
              + SEGMENT
              + ")/("
              + SEGMENT
              + ")((?:/[^@]+)?)(?:@(.*))?");
  private static final Pattern GITHUB_FORM =
      Pattern.compile("(" + SEGMENT + ")/(" + SEGMENT + ")(?:@(.*))?");
  private static final Pattern SCHEME = Pattern.compile("(file|https|ssh)://([^/]*)(/.*)?");
  private static final Pattern SCP =
      Pattern.compile("([A-Za-z0-9_][A-Za-z0-9_.-]*)@([A-Za-z0-9.-]+):(.+)");
  private static final Pattern AUTHORITY =
      Pattern.compile("(?:[A-Za-z0-9_][A-Za-z0-9_.-]*@)?[A-Za-z0-9][A-Za-z0-9.-]*(?::[0-9]{1,5})?");
  private static final Pattern REVISION = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_./+-]{0,254}");

  /**
   * The remote reference {@code ref} spells, or empty when it does not have a remote shape. A
   * {@code git+} reference is always remote and fails when malformed; the short forms are remote
   * only when the caller has checked that no file of that name exists.
   *
   * @throws ToolException INVALID_ARGUMENT for a malformed {@code git+} reference or {@code @REF}
   */
  public static Optional<RemoteRef> parse(String ref) {
    if (ref.startsWith("git+")) {
      return Optional.of(parseGitUrl(ref));
    }
    Matcher host = HOST_FORM.matcher(ref);
    if (host.matches()) {
      String repo = host.group(3);
      String url =
          "https://"
              + host.group(1).toLowerCase(java.util.Locale.ROOT)
              + "/"
              + host.group(2)
              + "/"
              + (repo.endsWith(".git") ? repo : repo + ".git");
      String subpath = host.group(4).isEmpty() ? null : subpath(ref, host.group(4).substring(1));
      return Optional.of(new RemoteRef(ref, url, subpath, revision(ref, host.group(5))));
    }
    Matcher github = GITHUB_FORM.matcher(ref);
    if (github.matches() && !looksLikeManifestFile(github.group(2))) {
      String repo = github.group(2);
      String url =
          "https://github.com/"
              + github.group(1)
              + "/"
              + (repo.endsWith(".git") ? repo : repo + ".git");
      return Optional.of(new RemoteRef(ref, url, null, revision(ref, github.group(3))));
    }
    return Optional.empty();
  }

  private static RemoteRef parseGitUrl(String ref) {
    String rest = ref.substring("git+".length());
    int pathStart;
    Matcher scheme = SCHEME.matcher(rest);
    Matcher scp = SCP.matcher(rest);
    if (scheme.matches()) {
      String authority = scheme.group(2);
      boolean file = scheme.group(1).equals("file");
      if (file ? !authority.isEmpty() : !AUTHORITY.matcher(authority).matches()) {
        throw invalid(
            ref,
            file
                ? "a file URL names an absolute path: git+file:///path/to/repo"
                : "'" + authority + "' is not a host");
      }
      if (scheme.group(3) == null || scheme.group(3).length() < 2) {
        throw invalid(ref, "the URL names no repository path");
      }
      pathStart = rest.indexOf("://") + 3 + authority.length();
    } else if (scp.matches()) {
      pathStart = rest.indexOf(':') + 1;
    } else {
      throw invalid(ref, "use a file://, https:// or ssh:// URL, or user@host:path, after 'git+'");
    }
    String revision = null;
    int at = rest.lastIndexOf('@');
    if (at > pathStart) {
      revision = revision(ref, rest.substring(at + 1));
      rest = rest.substring(0, at);
    }
    String subpath = null;
    int split = rest.indexOf("//", pathStart + 1);
    if (split > 0) {
      subpath = subpath(ref, rest.substring(split + 2));
      rest = rest.substring(0, split);
    }
    while (rest.endsWith("/") && rest.length() > pathStart + 1) {
      rest = rest.substring(0, rest.length() - 1);
    }
    if (rest.chars().anyMatch(c -> c <= ' ' || c == '\\')) {
      throw invalid(ref, "the URL holds spaces, control characters or backslashes");
    }
    return new RemoteRef(ref, rest, subpath, revision);
  }

  /** A relative path inside the repository, with no empty, '.' or '..' segments. */
  private static String subpath(String ref, String text) {
    String trimmed = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    List<String> segments = new ArrayList<>();
    for (String segment : trimmed.split("/", -1)) {
      if (segment.isEmpty()
          || segment.equals(".")
          || segment.equals("..")
          || segment.chars().anyMatch(c -> c < ' ' || c == '\\')) {
        throw invalid(
            ref,
            "the path inside the repository must be relative, without empty, '.' or '..' parts");
      }
      segments.add(segment);
    }
    return String.join("/", segments);
  }

  private static String revision(String ref, String text) {
    if (text == null) {
      return null;
    }
    if (!REVISION.matcher(text).matches() || text.contains("..") || text.endsWith(".lock")) {
      throw invalid(
          ref,
          "'@"
              + text
              + "' is not a Git ref: give a tag (v1, v1.2.3), a branch, or a commit of 7 to 40"
              + " hex digits");
    }
    return text;
  }

  private static boolean looksLikeManifestFile(String name) {
    return name.endsWith(".yaml") || name.endsWith(".yml");
  }

  private static ToolException invalid(String ref, String why) {
    return ToolException.invalidArgument(
        "workflow: '" + ref + "' is not a valid remote ref: " + why);
  }
}
