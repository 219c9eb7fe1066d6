package dev.cortex.workflows.remote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.GitAPIException;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.revwalk.RevCommit;

/**
 * A real bare Git repository on disk, filled through a working clone that pushes to it; reached
 * with a {@code file://} URL like any remote.
 */
public final class BareRepo implements AutoCloseable {
  private static final PersonIdent AUTHOR = new PersonIdent("Test", "test@example.invalid");

  private final Path bare;
  private final Git work;

  private BareRepo(Path bare, Git work) {
    this.bare = bare;
    this.work = work;
  }

  /** An empty bare repository in {@code dir}/repo.git with a working clone beside it. */
  public static BareRepo create(Path dir) throws GitAPIException, java.net.URISyntaxException {
    Path bare = dir.resolve("repo.git");
    Git.init().setBare(true).setInitialBranch("main").setDirectory(bare.toFile()).call().close();
    Git work =
        Git.init().setInitialBranch("main").setDirectory(dir.resolve("work").toFile()).call();
    work.remoteAdd()
        .setName("origin")
        .setUri(new org.eclipse.jgit.transport.URIish(bare.toUri().toString()))
        .call();
    return new BareRepo(bare, work);
  }

  /** The repository's URL: {@code file:///…/repo.git}. */
  public String url() {
    return "file://" + bare.toAbsolutePath();
  }

  /** Writes {@code files} (path to text), commits them and pushes; returns the commit id. */
  public String commit(Map<String, String> files, String message)
      throws IOException, GitAPIException {
    Path root = work.getRepository().getWorkTree().toPath();
    for (Map.Entry<String, String> file : files.entrySet()) {
      Path target = root.resolve(file.getKey());
      Files.createDirectories(target.getParent());
      Files.writeString(target, file.getValue(), StandardCharsets.UTF_8);
    }
    work.add().addFilepattern(".").call();
    RevCommit commit =
        work.commit().setMessage(message).setAuthor(AUTHOR).setCommitter(AUTHOR).call();
    push();
    return commit.name();
  }

  /** Tags HEAD (annotated) and pushes the tag. */
  public void tag(String name) throws GitAPIException {
    work.tag().setName(name).setAnnotated(true).setMessage(name).setTagger(AUTHOR).call();
    push();
  }

  /** Creates a branch at HEAD and pushes it. */
  public void branch(String name) throws GitAPIException {
    work.branchCreate().setName(name).call();
    push();
  }

  private void push() throws GitAPIException {
    work.push().setRemote("origin").setPushAll().setPushTags().call();
  }

  @Override
  public void close() {
    work.close();
  }
}
