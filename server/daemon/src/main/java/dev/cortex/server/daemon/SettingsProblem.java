package dev.cortex.server.daemon;

import java.time.Instant;
import java.util.Objects;

/**
 * What is wrong with the last edit of {@code cortex.toml} while the server runs; the settings read
 * before it stay in force until the file is fixed. {@code GET /health} tells it.
 *
 * @param message names the file (by its name alone) and the key, and says what is expected
 * @param since when the server found the edit
 */
public record SettingsProblem(String message, Instant since) {
  public SettingsProblem {
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(since, "since");
  }
}
