package dev.cortex.workflows.activity;

import dev.cortex.base.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Finds API keys: the environment variable first, else the owner-only secrets file {@code
 * $CORTEX_HOME/config/secrets.json} ({@code {"ANTHROPIC_API_KEY": "..."}}). A secrets file that
 * group or others may access is refused, not read.
 */
final class ApiKeys {
  static final String SECRETS_FILE = "secrets.json";

  private static final Set<PosixFilePermission> NOT_OWNER =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  private ApiKeys() {}

  /** The secrets file of {@code environment}'s Cortex home. */
  static Path secretsFile(ActivityEnvironment environment) {
    return environment.home().configDir().resolve(SECRETS_FILE);
  }

  /**
   * The key named {@code variable}.
   *
   * @throws ActivityFailure {@code missing_api_key} when neither place has it, {@code secrets} when
   *     the secrets file is open to others or unreadable; neither is retryable
   */
  static String find(String variable, ActivityEnvironment environment) throws ActivityFailure {
    Optional<String> fromEnvironment = environment.variable(variable);
    if (fromEnvironment.isPresent()) {
      return fromEnvironment.get();
    }
    Path file = secretsFile(environment);
    if (Files.exists(file)) {
      JsonNode value = read(file).path(variable);
      if (value.isString() && !value.asString().isBlank()) {
        return value.asString().strip();
      }
    }
    throw new ActivityFailure(
        "missing_api_key",
        "no API key: set the environment variable "
            + variable
            + " or add \""
            + variable
            + "\" to "
            + file
            + " (readable by its owner only)",
        null,
        false);
  }

  private static JsonNode read(Path file) throws ActivityFailure {
    try {
      PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
      if (posix != null) {
        Set<PosixFilePermission> open = EnumSet.copyOf(NOT_OWNER);
        open.retainAll(posix.readAttributes().permissions());
        if (!open.isEmpty()) {
          throw new ActivityFailure(
              "secrets",
              "refusing to read "
                  + file
                  + ": group or others may access it; make it owner-only with chmod 600",
              null,
              false);
        }
      }
      JsonNode secrets = Json.mapper().readTree(Files.readString(file));
      if (secrets == null || !secrets.isObject()) {
        throw new ActivityFailure(
            "secrets", file + " must hold a JSON object of key names to keys", null, false);
      }
      return secrets;
    } catch (IOException e) {
      throw new ActivityFailure(
          "secrets",
          "cannot read "
              + file
              + ": "
              + (e instanceof java.nio.file.AccessDeniedException
                  ? "permission denied"
                  : e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null
                      ? fs.getReason().toLowerCase(java.util.Locale.ROOT)
                      : String.valueOf(e.getMessage())),
          null,
          false);
    } catch (JacksonException e) {
      throw new ActivityFailure(
          "secrets", file + " is not valid JSON: " + e.getOriginalMessage(), null, false);
    }
  }
}
