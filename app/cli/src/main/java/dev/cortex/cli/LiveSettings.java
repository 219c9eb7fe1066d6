package dev.cortex.cli;

import dev.cortex.base.CortexHome;
import dev.cortex.base.StartupException;
import dev.cortex.base.settings.CortexToml;
import dev.cortex.server.daemon.SettingsProblem;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The settings of a long-lived process (the agent server): {@code cortex.toml} read again only when
 * it changes (its time or size), so that edits to budgets or waitpoint settings take effect without
 * a file read on every use. A bad edit never stops the process: the last good settings stay in
 * force, the problem is logged once, naming the file and key, and {@link #problem()} tells it until
 * the file is fixed.
 */
public final class LiveSettings implements Supplier<Settings> {
  private static final Logger log = LoggerFactory.getLogger(LiveSettings.class);

  private final CortexHome home;
  private final Map<String, String> env;
  private final Path file;
  private final Clock clock;
  private List<Object> stamp;
  private Settings inForce;
  private SettingsProblem problem;

  /**
   * Settings that start as {@code initial} (read when the process started; null: read at the first
   * use, and a problem then is thrown) and follow the file from then on.
   */
  LiveSettings(CortexHome home, Map<String, String> env, Settings initial, Clock clock) {
    this.home = Objects.requireNonNull(home, "home");
    this.env = Map.copyOf(env);
    this.file = home.configDir().resolve(CortexToml.FILE);
    this.inForce = initial;
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * The settings in force: the file's, read again if it changed, or the last good ones while it is
   * wrong.
   *
   * @throws StartupException when the file is wrong and no settings were ever read
   */
  @Override
  public synchronized Settings get() {
    List<Object> now = stamp(file);
    if (inForce != null && now.equals(stamp)) {
      return inForce;
    }
    stamp = now;
    try {
      Settings loaded = Settings.load(home, env);
      if (problem != null) {
        log.info("{} is valid again; its settings are in force", CortexToml.FILE);
      }
      inForce = loaded;
      problem = null;
    } catch (StartupException e) {
      if (inForce == null) {
        throw e;
      }
      problem = new SettingsProblem(withoutPaths(e.getMessage()), clock.instant());
      log.error("{}; the last good settings stay in force until the file is fixed", e.getMessage());
    } catch (RuntimeException e) {
      if (inForce == null) {
        throw e;
      }
      problem =
          new SettingsProblem(
              CortexToml.FILE + " could not be read; the server's log has the details",
              clock.instant());
      log.error(
          "{} could not be read; the last good settings stay in force until the file is fixed",
          file,
          e);
    }
    return inForce;
  }

  /** What is wrong with the file's last edit, if anything (the file is looked at again first). */
  public synchronized Optional<SettingsProblem> problem() {
    get();
    return Optional.ofNullable(problem);
  }

  /** The message with the file named by its name alone, and paths in the configuration relative. */
  private String withoutPaths(String message) {
    return message
        .replace(file.toString(), CortexToml.FILE)
        .replace(home.configDir().toString() + File.separator, "");
  }

  private static List<Object> stamp(Path file) {
    try {
      BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
      return List.of(attributes.lastModifiedTime(), attributes.size());
    } catch (IOException e) {
      return List.of();
    }
  }
}
