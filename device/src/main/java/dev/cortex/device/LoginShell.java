package dev.cortex.device;

import dev.cortex.process.OutputListener;
import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How this device runs a command line in bash. By default the device user's login environment is
 * resolved once, the way editors resolve a login shell's: {@code bash -lc 'env -0'} with the
 * client's environment, read back as variables. Each command then runs with {@code bash -c} in that
 * environment, so a heavy profile (a version manager's init, say) costs nothing per command while
 * its {@code PATH} and exported variables still apply. The profile files ({@code /etc/profile} and
 * {@code /etc/profile.d/}, {@code ~/.bash_profile}, {@code ~/.bash_login}, {@code ~/.profile},
 * {@code ~/.bashrc}, {@code /etc/bash.bashrc}) are looked at before each command (their size and
 * modification time), and the environment is resolved again when one changed. What is carried is
 * exported variables only: shell functions, aliases and shell options are not. When the resolution
 * fails (no bash, the profile exits non-zero or takes over {@link #RESOLVE_TIMEOUT}), commands run
 * as {@link #perCommand} does, and the log says why.
 *
 * <p>{@link #perCommand} keeps the old way: every command in its own login shell ({@code bash
 * -lc}), which reads the profile each time.
 */
final class LoginShell {
  private static final Logger log = LoggerFactory.getLogger(LoginShell.class);

  /** The longest a login shell may take to print its environment. */
  static final Duration RESOLVE_TIMEOUT = Duration.ofSeconds(10);

  /** Where the environment starts in what the login shell prints. */
  static final String MARK = "CORTEX_LOGIN_ENVIRONMENT";

  /** Variables that belong to one shell, not to the environment. */
  static final Set<String> SHELL_OWN = Set.of("_", "SHLVL", "PWD", "OLDPWD");

  private final Map<String, String> base;
  private final boolean login;
  private final List<Path> profiles;
  private final Path profileDir;
  private List<String> seen;
  private Map<String, String> resolved;

  private LoginShell(Map<String, String> base, boolean login, Path home) {
    this.base = Map.copyOf(base);
    this.login = login;
    List<Path> files =
        new ArrayList<>(List.of(Path.of("/etc/profile"), Path.of("/etc/bash.bashrc")));
    if (home != null) {
      for (String name : List.of(".bash_profile", ".bash_login", ".profile", ".bashrc")) {
        files.add(home.resolve(name));
      }
    }
    this.profiles = List.copyOf(files);
    this.profileDir = Path.of("/etc/profile.d");
  }

  /** Every command in its own login shell ({@code bash -lc}), in {@code environment}. */
  static LoginShell perCommand(Map<String, String> environment) {
    return new LoginShell(environment, true, null);
  }

  /**
   * Commands with {@code bash -c} in the login environment of {@code environment}'s user, resolved
   * now and again whenever a profile file changes.
   */
  static LoginShell resolvedOnce(Map<String, String> environment) {
    String home = environment.get("HOME");
    LoginShell shell = new LoginShell(environment, false, home == null ? null : Path.of(home));
    shell.now();
    return shell;
  }

  /**
   * How bash runs a command now: {@code flag} ({@code -c} in the resolved login environment, or
   * {@code -lc} in the client's) and the environment.
   */
  record Invocation(String flag, Map<String, String> environment) {
    List<String> command(String script) {
      return List.of("bash", flag, script);
    }
  }

  /** How a command runs now (the environment resolved again first when a profile changed). */
  synchronized Invocation now() {
    if (login) {
      return new Invocation("-lc", base);
    }
    List<String> marks = fingerprint();
    if (!marks.equals(seen)) {
      seen = marks;
      resolved = resolve();
    }
    return resolved == null ? new Invocation("-lc", base) : new Invocation("-c", resolved);
  }

  /** The size and modification time of each profile file there is, in order. */
  private List<String> fingerprint() {
    List<String> marks = new ArrayList<>();
    List<Path> files = new ArrayList<>(profiles);
    if (Files.isDirectory(profileDir)) {
      try (Stream<Path> entries = Files.list(profileDir)) {
        entries.sorted().forEach(files::add);
      } catch (IOException e) {
        marks.add("profile.d unreadable");
      }
    }
    for (Path file : files) {
      try {
        BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
        marks.add(file + ":" + a.size() + ":" + a.lastModifiedTime().toMillis());
      } catch (IOException e) {
        marks.add(file + ":-");
      }
    }
    return marks;
  }

  /** The login shell's exported variables, or null when they could not be had. */
  private Map<String, String> resolve() {
    String home = base.get("HOME");
    try {
      ProcessSpec.Builder spec =
          ProcessSpec.builder(
                  List.of("bash", "-lc", "printf '\\0" + MARK + "\\0'; exec env -0"), base)
              .timeout(RESOLVE_TIMEOUT)
              .capture(4 << 20, 0);
      if (home != null && Files.isDirectory(Path.of(home))) {
        spec.directory(Path.of(home));
      }
      ProcessResult result = Processes.start(spec.build(), OutputListener.NONE).await();
      if (result.timedOut() || result.exitCode() != 0 || result.stdout().truncated()) {
        log.warn(
            "the login environment could not be resolved (bash -lc exited {}{}); each command"
                + " runs in a login shell of its own",
            result.exitCode(),
            result.timedOut() ? ", timed out" : "");
        return null;
      }
      // What the profile itself printed comes before the mark, and is not the environment.
      String printed = result.stdout().text(StandardCharsets.UTF_8);
      int mark = printed.indexOf("\0" + MARK + "\0");
      if (mark < 0) {
        log.warn("the login environment could not be read; each command runs in a login shell");
        return null;
      }
      Map<String, String> env = new LinkedHashMap<>();
      for (String entry : printed.substring(mark + MARK.length() + 2).split("\0")) {
        int eq = entry.indexOf('=');
        if (eq > 0 && !SHELL_OWN.contains(entry.substring(0, eq))) {
          env.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
      }
      if (env.isEmpty()) {
        return null;
      }
      log.info("the login environment is resolved ({} variables)", env.size());
      return Map.copyOf(env);
    } catch (IOException | IllegalArgumentException e) {
      log.warn(
          "the login environment could not be resolved ({}); each command runs in a login shell"
              + " of its own",
          e.getMessage());
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  @Override
  public String toString() {
    return login ? "a login shell per command" : "the login environment, resolved once";
  }
}
