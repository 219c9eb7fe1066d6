package dev.cortex.workflows.remote;

import dev.cortex.base.CortexHome;
import dev.cortex.base.ErrorCodes;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.tools.WorkflowErrors;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.api.errors.InvalidRemoteException;
import org.eclipse.jgit.errors.IncorrectObjectTypeException;
import org.eclipse.jgit.errors.MissingObjectException;
import org.eclipse.jgit.errors.NoRemoteRepositoryException;
import org.eclipse.jgit.lib.AbbreviatedObjectId;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectLoader;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;
import org.eclipse.jgit.transport.SshTransport;
import org.eclipse.jgit.transport.TagOpt;
import org.eclipse.jgit.treewalk.TreeWalk;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remote workflow repositories, fetched with JGit into bare repositories under {@code
 * $CORTEX_HOME/cache/git/}, one per URL, and read at an exact commit. A fetch happens on every use
 * unless the ref is a full commit the cache already holds; a lock file keeps processes sharing the
 * home from fetching the same repository at once.
 */
public final class GitCache {
  private static final Logger log = LoggerFactory.getLogger(GitCache.class);

  private static final long MAX_MANIFEST_BYTES = 1024 * 1024;
  private static final int FETCH_TIMEOUT_SECONDS = 120;
  private static final Pattern SEMVER =
      Pattern.compile("v([0-9]{1,9})\\.([0-9]{1,9})\\.([0-9]{1,9})");
  private static final Pattern SEMVER_PREFIX = Pattern.compile("v[0-9]{1,9}(\\.[0-9]{1,9}){0,2}");
  private static final Pattern COMMIT = Pattern.compile("[0-9a-f]{7,40}");
  private static final List<String> DEFAULT_FILES = List.of("workflow.yaml", "workflow.yml");

  private final Path root;

  public GitCache(CortexHome home) {
    this(home.root().resolve("cache").resolve("git"));
  }

  GitCache(Path root) {
    this.root = root;
  }

  /** A manifest read from a repository: the exact commit, its path there, and its text. */
  public record Checkout(String commit, String path, String text) {}

  /**
   * Fetches {@code ref}'s repository, resolves its revision to a commit and reads the manifest.
   *
   * @throws ToolException INVALID_REFERENCE (no such repository, revision or file), UNAVAILABLE
   *     (the repository cannot be reached), INVALID_MANIFEST (not UTF-8, too large)
   */
  public Checkout read(RemoteRef ref) {
    CortexHome.ensureDirectory(root);
    String key = key(ref.repository());
    Path lockFile = root.resolve(key + ".lock");
    try (LockFile lock = LockFile.acquire(lockFile);
        Repository repository = open(root.resolve(key));
        Git git = Git.wrap(repository)) {
      String revision = ref.revision();
      boolean pinned =
          revision != null
              && revision.length() == 40
              && COMMIT.matcher(revision).matches()
              && repository.getObjectDatabase().has(ObjectId.fromString(revision));
      if (!pinned) {
        fetch(git, ref);
      }
      ObjectId commit = resolve(repository, ref);
      return checkout(repository, commit, ref);
    } catch (IOException e) {
      log.warn("git cache for {} failed", ref.repository(), e);
      throw new ToolException(
          ErrorCodes.UNAVAILABLE,
          "cannot read " + ref.repository() + " through the local Git cache: " + clean(e));
    }
  }

  private static Repository open(Path dir) throws IOException {
    Repository repository = new FileRepositoryBuilder().setGitDir(dir.toFile()).setBare().build();
    if (!Files.isDirectory(dir.resolve("objects"))) {
      repository.create(true);
    }
    return repository;
  }

  private void fetch(Git git, RemoteRef ref) {
    try {
      git.fetch()
          .setRemote(ref.repository())
          .setRefSpecs("+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*")
          .setTagOpt(TagOpt.NO_TAGS)
          .setRemoveDeletedRefs(true)
          .setTimeout(FETCH_TIMEOUT_SECONDS)
          .setTransportConfigCallback(
              transport -> {
                if (transport instanceof SshTransport ssh) {
                  ssh.setSshSessionFactory(new SystemSsh());
                }
              })
          .call();
    } catch (InvalidRemoteException e) {
      throw ToolException.invalidReference("no Git repository at " + ref.repository());
    } catch (GitAPIException | RuntimeException e) {
      if (hasCause(e, NoRemoteRepositoryException.class)) {
        throw ToolException.invalidReference("no Git repository at " + ref.repository());
      }
      // Expected when the host is down or refuses us: one line, the detail only when debugging.
      log.warn("fetching {} failed: {}", ref.repository(), clean(e));
      log.debug("fetching {} failed", ref.repository(), e);
      throw new ToolException(
          ErrorCodes.UNAVAILABLE, "cannot fetch " + ref.repository() + ": " + clean(e));
    }
  }

  private static ObjectId resolve(Repository repository, RemoteRef ref) throws IOException {
    String revision = ref.revision();
    List<Ref> tags = repository.getRefDatabase().getRefsByPrefix(Constants.R_TAGS);
    if (revision == null) {
      return highest(repository, tags, null)
          .orElseThrow(
              () ->
                  ToolException.invalidReference(
                      ref.repository()
                          + " has no vX.Y.Z tag to take by default: name a ref, e.g. "
                          + ref.written()
                          + "@main, @v1.2.3 or @<commit>"));
    }
    if (SEMVER_PREFIX.matcher(revision).matches()) {
      Optional<ObjectId> tagged = highest(repository, tags, revision);
      if (tagged.isPresent()) {
        return tagged.get();
      }
    }
    if (COMMIT.matcher(revision).matches()) {
      return commitByPrefix(repository, ref);
    }
    for (String name : List.of(Constants.R_TAGS + revision, Constants.R_HEADS + revision)) {
      Ref found = repository.exactRef(name);
      if (found != null) {
        return commitOf(repository, found, ref);
      }
    }
    throw ToolException.invalidReference(
        ref.repository() + " has no tag, branch or commit '" + revision + "'");
  }

  /** The highest vX.Y.Z tag, among those equal to {@code prefix} or under it when given. */
  private static Optional<ObjectId> highest(Repository repository, List<Ref> tags, String prefix)
      throws IOException {
    Ref best = null;
    long[] bestVersion = null;
    for (Ref tag : tags) {
      String name = tag.getName().substring(Constants.R_TAGS.length());
      Matcher semver = SEMVER.matcher(name);
      if (!semver.matches()
          || (prefix != null && !name.equals(prefix) && !name.startsWith(prefix + "."))) {
        continue;
      }
      long[] version = {
        Long.parseLong(semver.group(1)),
        Long.parseLong(semver.group(2)),
        Long.parseLong(semver.group(3))
      };
      if (bestVersion == null || compare(version, bestVersion) > 0) {
        best = tag;
        bestVersion = version;
      }
    }
    if (best == null) {
      return Optional.empty();
    }
    return Optional.of(commitOf(repository, best, null));
  }

  private static int compare(long[] a, long[] b) {
    for (int i = 0; i < a.length; i++) {
      if (a[i] != b[i]) {
        return Long.compare(a[i], b[i]);
      }
    }
    return 0;
  }

  private static ObjectId commitOf(Repository repository, Ref ref, RemoteRef remote)
      throws IOException {
    Ref peeled = repository.getRefDatabase().peel(ref);
    ObjectId id =
        peeled.getPeeledObjectId() != null ? peeled.getPeeledObjectId() : ref.getObjectId();
    try (RevWalk walk = new RevWalk(repository)) {
      return walk.parseCommit(id).getId();
    } catch (IncorrectObjectTypeException e) {
      throw ToolException.invalidReference(
          ref.getName()
              + (remote == null ? "" : " of " + remote.repository())
              + " is not a commit");
    }
  }

  private static ObjectId commitByPrefix(Repository repository, RemoteRef ref) throws IOException {
    String revision = ref.revision();
    try (ObjectReader reader = repository.newObjectReader();
        RevWalk walk = new RevWalk(reader)) {
      Collection<ObjectId> matches = reader.resolve(AbbreviatedObjectId.fromString(revision));
      List<ObjectId> commits = new ArrayList<>();
      for (ObjectId id : matches) {
        try {
          commits.add(walk.parseCommit(id).getId());
        } catch (IncorrectObjectTypeException | MissingObjectException e) {
          // not a commit: a tree or blob with the same prefix
        }
      }
      if (commits.size() > 1) {
        throw ToolException.invalidReference(
            "'"
                + revision
                + "' names several commits of "
                + ref.repository()
                + ": give more digits");
      }
      if (commits.isEmpty()) {
        throw ToolException.invalidReference(
            ref.repository() + " has no commit '" + revision + "' on its branches or tags");
      }
      return commits.get(0);
    }
  }

  private static Checkout checkout(Repository repository, ObjectId id, RemoteRef ref)
      throws IOException {
    try (RevWalk walk = new RevWalk(repository)) {
      RevCommit commit = walk.parseCommit(id);
      List<String> candidates = new ArrayList<>();
      if (ref.subpath() == null) {
        candidates.addAll(DEFAULT_FILES);
      } else {
        try (TreeWalk entry = TreeWalk.forPath(repository, ref.subpath(), commit.getTree())) {
          if (entry != null && entry.getFileMode(0) == FileMode.TREE) {
            DEFAULT_FILES.forEach(f -> candidates.add(ref.subpath() + "/" + f));
          } else {
            candidates.add(ref.subpath());
          }
        }
      }
      for (String path : candidates) {
        try (TreeWalk entry = TreeWalk.forPath(repository, path, commit.getTree())) {
          if (entry == null) {
            continue;
          }
          if (entry.getFileMode(0) != FileMode.REGULAR_FILE
              && entry.getFileMode(0) != FileMode.EXECUTABLE_FILE) {
            throw ToolException.invalidReference(
                path + " in " + ref.repository() + " is not a regular file");
          }
          return new Checkout(commit.name(), path, text(repository, entry.getObjectId(0), ref));
        }
      }
      throw ToolException.invalidReference(
          "no workflow "
              + (ref.subpath() == null
                  ? "(workflow.yaml) at the root"
                  : "at '" + ref.subpath() + "' (a manifest, or a directory with workflow.yaml)")
              + " of "
              + ref.repository()
              + " at commit "
              + commit.name().substring(0, 12));
    }
  }

  private static String text(Repository repository, ObjectId blob, RemoteRef ref)
      throws IOException {
    ObjectLoader loader = repository.open(blob, Constants.OBJ_BLOB);
    if (loader.getSize() > MAX_MANIFEST_BYTES) {
      throw ToolException.invalidArgument(
          "workflow '" + ref.written() + "' is larger than 1 MiB; a manifest is a short YAML file");
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(loader.getBytes()))
          .toString();
    } catch (CharacterCodingException e) {
      throw new ToolException(
          WorkflowErrors.INVALID_MANIFEST, "workflow '" + ref.written() + "' is not UTF-8 text");
    }
  }

  /** A directory name for a repository URL: stable, short, and free of the URL's characters. */
  static String key(String url) {
    try {
      byte[] digest =
          MessageDigest.getInstance("SHA-256").digest(url.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  /** The innermost message of {@code e}, without the cache's location. */
  private String clean(Throwable e) {
    Throwable inner = e;
    while (inner.getCause() != null && inner.getCause().getMessage() != null) {
      inner = inner.getCause();
    }
    String message =
        inner.getMessage() == null ? inner.getClass().getSimpleName() : inner.getMessage();
    return message.replace(root.toString(), "<cache>").lines().findFirst().orElse("").strip();
  }
}
