package dev.cortex.workflows;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.manifest.Manifest;
import dev.cortex.workflows.manifest.ManifestException;
import dev.cortex.workflows.manifest.ManifestLoader;
import dev.cortex.workflows.remote.GitCache;
import dev.cortex.workflows.remote.RemoteRef;
import dev.cortex.workflows.run.WorkflowRef;
import dev.cortex.workflows.tools.WorkflowErrors;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Finds the manifest a workflow reference names: a local path (absolute, or relative to the working
 * directory), a name in the local library ({@code $CORTEX_HOME/workflows/}), or a remote ref into a
 * Git repository ({@link RemoteRef}), read at an exact commit through the {@link GitCache}.
 */
public final class Sources {
  /** Names in the library: what {@code cortex workflows save} accepts as a file name. */
  public static final Pattern LIBRARY_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,127}");

  private static final long MAX_MANIFEST_BYTES = 1024 * 1024;

  private final Path library;
  private final Path workingDirectory;
  private final GitCache git;

  public Sources(CortexHome home, Path workingDirectory) {
    this.library = home.workflowsDir();
    this.workingDirectory = workingDirectory;
    this.git = new GitCache(home);
  }

  /** A manifest as read: the validated model, its text, and where it came from. */
  public record Loaded(Manifest manifest, String text, WorkflowRef ref) {}

  /**
   * Reads and validates the workflow {@code ref} names.
   *
   * @throws ToolException INVALID_REFERENCE when nothing is found, INVALID_MANIFEST with every
   *     problem when the manifest does not load
   */
  public Loaded load(String ref) {
    if (ref == null || ref.isBlank()) {
      throw ToolException.invalidArgument(
          "workflow: give a path to a manifest, a library name or a remote ref");
    }
    Optional<RemoteRef> remote = remote(ref);
    if (remote.isPresent()) {
      GitCache.Checkout checkout = git.read(remote.get());
      WorkflowRef where =
          WorkflowRef.remote(ref, remote.get().repository(), checkout.path(), checkout.commit());
      return parse(ref, checkout.text(), where.location(), where);
    }
    Path file = locate(ref);
    String text = read(ref, file);
    String label = file.toString();
    boolean inLibrary = file.startsWith(library);
    return parse(ref, text, label, new WorkflowRef(inLibrary ? "library" : "path", ref, label));
  }

  /**
   * The remote ref {@code ref} spells: always for {@code git+}, else only when no file or directory
   * of that name exists, so that a local path always wins.
   */
  private Optional<RemoteRef> remote(String ref) {
    if (!ref.startsWith("git+")) {
      try {
        if (Files.exists(workingDirectory.resolve(expandHome(ref)))) {
          return Optional.empty();
        }
      } catch (java.nio.file.InvalidPathException e) {
        // not a path here: it may still be a remote ref
      }
    }
    return RemoteRef.parse(ref);
  }

  private static Loaded parse(String ref, String text, String label, WorkflowRef where) {
    try {
      return new Loaded(ManifestLoader.parse(label, text), text, where);
    } catch (ManifestException e) {
      int count = e.problems().size();
      throw new ToolException(
          WorkflowErrors.INVALID_MANIFEST,
          "workflow '"
              + ref
              + "' has "
              + count
              + (count == 1 ? " problem" : " problems")
              + ":\n"
              + e.getMessage());
    }
  }

  private Path locate(String ref) {
    Path path;
    try {
      path = workingDirectory.resolve(expandHome(ref)).normalize();
    } catch (java.nio.file.InvalidPathException e) {
      path = null;
    }
    if (path != null && Files.isRegularFile(path)) {
      return path;
    }
    if (LIBRARY_NAME.matcher(ref).matches() && !looksLikePath(ref)) {
      for (String extension : List.of(".yaml", ".yml")) {
        Path saved = library.resolve(ref + extension);
        if (Files.isRegularFile(saved)) {
          return saved;
        }
      }
      throw ToolException.invalidReference(
          "no workflow '"
              + ref
              + "': it is neither a file nor a name in the local library"
              + libraryHint());
    }
    throw ToolException.invalidReference(
        "no workflow file '"
            + ref
            + "'"
            + (path != null && Files.isDirectory(path) ? " (it is a directory)" : ""));
  }

  private String libraryHint() {
    List<String> names = names();
    return names.isEmpty()
        ? " (the library is empty; a human saves workflows with `cortex workflows save FILE`)"
        : " (saved: " + String.join(", ", names) + ")";
  }

  /** The names saved in the library, sorted. */
  public List<String> names() {
    if (!Files.isDirectory(library)) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    try (Stream<Path> files = Files.list(library)) {
      files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.endsWith(".yaml") || n.endsWith(".yml"))
          .map(n -> n.substring(0, n.lastIndexOf('.')))
          .sorted()
          .forEach(names::add);
    } catch (IOException e) {
      return List.of();
    }
    return names;
  }

  /** Where {@code name} is saved in the library. */
  public Path libraryFile(String name) {
    return library.resolve(name + ".yaml");
  }

  private static boolean looksLikePath(String ref) {
    return ref.endsWith(".yaml") || ref.endsWith(".yml");
  }

  private static String expandHome(String ref) {
    if (ref.equals("~") || ref.startsWith("~/")) {
      return System.getProperty("user.home") + ref.substring(1);
    }
    return ref;
  }

  private static String read(String ref, Path file) {
    try {
      if (Files.size(file) > MAX_MANIFEST_BYTES) {
        throw ToolException.invalidArgument(
            "workflow '" + ref + "' is larger than 1 MiB; a manifest is a short YAML file");
      }
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.nio.charset.MalformedInputException e) {
      throw new ToolException(
          WorkflowErrors.INVALID_MANIFEST, "workflow '" + ref + "' is not UTF-8 text");
    } catch (IOException e) {
      throw ToolException.invalidReference(
          "workflow '" + ref + "' cannot be read: " + readProblem(e));
    }
  }

  /** Why a file could not be read, in words, without the path the caller gave already. */
  static String readProblem(IOException e) {
    if (e instanceof java.nio.file.AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null) {
      return fs.getReason().toLowerCase(java.util.Locale.ROOT);
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }
}
