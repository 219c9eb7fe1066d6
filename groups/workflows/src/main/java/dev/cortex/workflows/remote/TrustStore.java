package dev.cortex.workflows.remote;

import dev.cortex.base.CortexHome;
import dev.cortex.base.ErrorCodes;
import dev.cortex.base.Json;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.run.WorkflowRef;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.DeserializationFeature;

/**
 * The consents a human gave to remote workflows, in {@code $CORTEX_HOME/trust.json}, shared by the
 * command line and every MCP server of the home. A consent covers one manifest (repository and path
 * in it) at one commit, for the capabilities it declared then: a neighbour in the same repository,
 * a new commit, or a capability beyond those consented needs consent again.
 */
public final class TrustStore {
  private static final Logger log = LoggerFactory.getLogger(TrustStore.class);

  private final Path file;
  private final Clock clock;

  public TrustStore(CortexHome home, Clock clock) {
    this.file = home.root().resolve("trust.json");
    this.clock = clock;
  }

  /** One consent. */
  public record Grant(
      String repository,
      String subpath,
      String commit,
      List<String> capabilities,
      String ref,
      String workflow,
      String consentedAt) {
    public Grant {
      Objects.requireNonNull(repository, "repository");
      Objects.requireNonNull(subpath, "subpath");
      Objects.requireNonNull(commit, "commit");
      capabilities = capabilities == null ? List.of() : List.copyOf(capabilities);
    }

    boolean sameWorkflow(WorkflowRef ref) {
      return repository.equals(ref.repository())
          && subpath.equals(ref.subpath())
          && commit.equals(ref.commit());
    }
  }

  /** The file as stored. */
  record Document(int version, List<Grant> trusted) {
    Document {
      trusted = trusted == null ? List.of() : List.copyOf(trusted);
    }
  }

  /** Whether a consent covers the remote workflow {@code ref} with these capabilities. */
  public boolean covers(WorkflowRef ref, Collection<String> capabilities) {
    requireRemote(ref);
    for (Grant grant : load().trusted()) {
      if (grant.sameWorkflow(ref) && grant.capabilities().containsAll(capabilities)) {
        return true;
      }
    }
    return false;
  }

  /** Records the human's consent to {@code ref} with these capabilities, replacing an older one. */
  public void record(WorkflowRef ref, String workflow, Collection<String> capabilities) {
    requireRemote(ref);
    try (LockFile lock = LockFile.acquire(file.resolveSibling("trust.json.lock"))) {
      List<Grant> grants = new ArrayList<>();
      for (Grant grant : load().trusted()) {
        if (!grant.sameWorkflow(ref)) {
          grants.add(grant);
        }
      }
      grants.add(
          new Grant(
              ref.repository(),
              ref.subpath(),
              ref.commit(),
              List.copyOf(new TreeSet<>(capabilities)),
              ref.ref(),
              workflow,
              clock.instant().toString()));
      CortexHome.writeAtomically(file, Json.writePretty(new Document(1, grants)) + "\n");
    } catch (IOException | java.io.UncheckedIOException e) {
      log.warn("cannot record trust", e);
      throw new ToolException(
          ErrorCodes.UNAVAILABLE,
          "cannot record the consent in $CORTEX_HOME/trust.json (the server's log says why);"
              + " nothing ran");
    }
  }

  /** Every consent, oldest first. */
  public List<Grant> grants() {
    return load().trusted();
  }

  private Document load() {
    if (!Files.exists(file)) {
      return new Document(1, List.of());
    }
    try {
      Document document =
          Json.mapper()
              .readerFor(Document.class)
              .without(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
              .readValue(Files.readString(file, StandardCharsets.UTF_8));
      return document == null ? new Document(1, List.of()) : document;
    } catch (IOException | JacksonException | IllegalArgumentException | NullPointerException e) {
      log.warn("trust store unreadable", e);
      throw new ToolException(
          ErrorCodes.UNAVAILABLE,
          "the trust store $CORTEX_HOME/trust.json cannot be read (it is not the JSON Cortex"
              + " writes); fix it, or remove it to forget every consent");
    }
  }

  private static void requireRemote(WorkflowRef ref) {
    if (!WorkflowRef.REMOTE.equals(ref.kind()) || ref.commit() == null) {
      throw new IllegalArgumentException("not a remote workflow: " + ref);
    }
  }
}
