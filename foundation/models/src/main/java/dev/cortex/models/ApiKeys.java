package dev.cortex.models;

import dev.cortex.base.CortexHome;
import dev.cortex.base.Json;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * Finds the API keys of providers: the provider's environment variable first, else the owner-only
 * secrets file {@code $CORTEX_HOME/config/secrets.json} ({@code {"ANTHROPIC_API_KEY": "..."}}). A
 * secrets file that group or others may access is refused, not read. Keys are never part of a
 * message: a lookup says where a key comes from, not what it is.
 */
public final class ApiKeys {
  /** The secrets file's name in the configuration directory. */
  public static final String SECRETS_FILE = "secrets.json";

  private static final Set<PosixFilePermission> NOT_OWNER =
      EnumSet.of(
          PosixFilePermission.GROUP_READ,
          PosixFilePermission.GROUP_WRITE,
          PosixFilePermission.GROUP_EXECUTE,
          PosixFilePermission.OTHERS_READ,
          PosixFilePermission.OTHERS_WRITE,
          PosixFilePermission.OTHERS_EXECUTE);

  /** Where a provider's key comes from, as listings show it. */
  public enum KeyState {
    /** The provider needs no key (a local server). */
    NOT_NEEDED("not needed"),
    /** Its environment variable is set. */
    ENVIRONMENT("from environment"),
    /** The secrets file has it. */
    SECRETS_FILE("from secrets file"),
    /** Neither place has it. */
    MISSING("missing"),
    /** The secrets file is open to others, unreadable or not a JSON object of keys. */
    SECRETS_UNREADABLE("secrets file unreadable");

    private final String words;

    KeyState(String words) {
      this.words = words;
    }

    /** The state in words: {@code from environment}, {@code missing}, ... */
    public String words() {
      return words;
    }

    /** Whether a call can have a key (or needs none). */
    public boolean usable() {
      return this == NOT_NEEDED || this == ENVIRONMENT || this == SECRETS_FILE;
    }
  }

  private final CortexHome home;
  private final Map<String, String> env;

  public ApiKeys(CortexHome home, Map<String, String> env) {
    this.home = Objects.requireNonNull(home, "home");
    this.env = Map.copyOf(Objects.requireNonNull(env, "env"));
  }

  /** The secrets file of this home. */
  public Path secretsFile() {
    return home.configDir().resolve(SECRETS_FILE);
  }

  /**
   * The key of {@code provider}, or null when it needs none.
   *
   * @throws ModelFailure {@link ModelFailure.Kind#MISSING_KEY}, with a sentence naming the variable
   *     and the secrets file (or what is wrong with the file), when there is no key to use
   */
  public String require(ModelProvider provider) throws ModelFailure {
    Found found = find(provider.keyVariable());
    if (found.state().usable()) {
      return found.key();
    }
    throw new ModelFailure(ModelFailure.Kind.MISSING_KEY, 0, null, found.problem());
  }

  /**
   * Another secret kept the same way (a platform's token, say): the variable {@code name} from the
   * environment, else the secrets file; null, with {@code problem} told why, when there is none.
   */
  public String secret(String name, java.util.function.Consumer<String> problem) {
    Found found = find(name);
    if (found.state().usable()) {
      return found.key();
    }
    problem.accept(found.problem().replace("no API key", "no " + name));
    return null;
  }

  /** Where the key of {@code provider} comes from, or why it has none. */
  public KeyState state(ModelProvider provider) {
    return find(provider.keyVariable()).state();
  }

  /** What a lookup found; {@code key} null unless usable, {@code problem} null when usable. */
  private record Found(KeyState state, String key, String problem) {
    @Override
    public String toString() {
      return "Found[" + state + "]"; // never the key
    }
  }

  private Found find(String variable) {
    if (variable == null) {
      return new Found(KeyState.NOT_NEEDED, null, null);
    }
    String fromEnvironment = env.get(variable);
    if (fromEnvironment != null && !fromEnvironment.isBlank()) {
      return new Found(KeyState.ENVIRONMENT, fromEnvironment.strip(), null);
    }
    Path file = secretsFile();
    if (Files.exists(file)) {
      JsonNode secrets;
      try {
        secrets = read(file);
      } catch (Unreadable e) {
        return new Found(KeyState.SECRETS_UNREADABLE, null, e.getMessage());
      }
      JsonNode value = secrets.path(variable);
      if (value.isString() && !value.asString().isBlank()) {
        return new Found(KeyState.SECRETS_FILE, value.asString().strip(), null);
      }
    }
    return new Found(
        KeyState.MISSING,
        null,
        "no API key: set the environment variable "
            + variable
            + " or add \""
            + variable
            + "\" to "
            + file
            + " (readable by its owner only)");
  }

  /** Why the secrets file cannot be read. */
  private static final class Unreadable extends Exception {
    private static final long serialVersionUID = 1L;

    Unreadable(String message) {
      super(message, null, false, false);
    }
  }

  private static JsonNode read(Path file) throws Unreadable {
    try {
      PosixFileAttributeView posix = Files.getFileAttributeView(file, PosixFileAttributeView.class);
      if (posix != null) {
        Set<PosixFilePermission> open = EnumSet.copyOf(NOT_OWNER);
        open.retainAll(posix.readAttributes().permissions());
        if (!open.isEmpty()) {
          throw new Unreadable(
              "refusing to read "
                  + file
                  + ": group or others may access it; make it owner-only with chmod 600");
        }
      }
      JsonNode secrets = Json.mapper().readTree(Files.readString(file));
      if (secrets == null || !secrets.isObject()) {
        throw new Unreadable(file + " must hold a JSON object of key names to keys");
      }
      return secrets;
    } catch (IOException e) {
      throw new Unreadable(
          "cannot read "
              + file
              + ": "
              + (e instanceof AccessDeniedException
                  ? "permission denied"
                  : e instanceof FileSystemException fs && fs.getReason() != null
                      ? fs.getReason().toLowerCase(Locale.ROOT)
                      : String.valueOf(e.getMessage())));
    } catch (JacksonException e) {
      throw new Unreadable(file + " is not valid JSON: " + e.getOriginalMessage());
    }
  }
}
