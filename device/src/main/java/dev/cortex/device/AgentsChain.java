package dev.cortex.device;

import dev.cortex.base.Hashes;
import dev.cortex.protocol.hub.Actions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The instructions that apply to a file on this device: the Cortex home's {@code AGENTS.md}, then
 * every {@code AGENTS.md} and {@code AGENTS.local.md} from the file system's root down to the
 * file's directory (the nearest last, so that it reads as the most specific). Each is cut at {@link
 * Actions#MAX_AGENTS_BYTES}.
 */
final class AgentsChain {
  private static final List<String> NAMES = List.of("AGENTS.md", "AGENTS.local.md");

  private final Path homeFile;

  /**
   * @param homeFile the device's {@code $CORTEX_HOME/AGENTS.md}, or null
   */
  AgentsChain(Path homeFile) {
    this.homeFile = homeFile;
  }

  List<Actions.AgentsFile> of(Path file) {
    List<Path> candidates = new ArrayList<>();
    if (homeFile != null) {
      candidates.add(homeFile);
    }
    List<Path> dirs = new ArrayList<>();
    for (Path dir = file.getParent(); dir != null; dir = dir.getParent()) {
      dirs.add(0, dir);
    }
    for (Path dir : dirs) {
      for (String name : NAMES) {
        Path candidate = dir.resolve(name);
        if (!candidate.equals(homeFile)) {
          candidates.add(candidate);
        }
      }
    }
    List<Actions.AgentsFile> chain = new ArrayList<>();
    for (Path candidate : candidates) {
      Actions.AgentsFile found = read(candidate);
      if (found != null) {
        chain.add(found);
      }
    }
    return chain;
  }

  private static Actions.AgentsFile read(Path path) {
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      return null;
    }
    try (InputStream in = Files.newInputStream(path)) {
      byte[] bytes = in.readNBytes(Actions.MAX_AGENTS_BYTES + 1);
      boolean cut = bytes.length > Actions.MAX_AGENTS_BYTES;
      byte[] kept = cut ? java.util.Arrays.copyOf(bytes, Actions.MAX_AGENTS_BYTES) : bytes;
      return new Actions.AgentsFile(
          path.toString(), new String(kept, StandardCharsets.UTF_8), sha256(kept), cut);
    } catch (IOException e) {
      return null;
    }
  }

  private static String sha256(byte[] bytes) {
    return Hashes.sha256(bytes);
  }
}
