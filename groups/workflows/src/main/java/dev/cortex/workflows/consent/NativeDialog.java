package dev.cortex.workflows.consent;

import dev.cortex.process.Executables;
import dev.cortex.process.OutputListener;
import dev.cortex.process.ProcessResult;
import dev.cortex.process.ProcessSpec;
import dev.cortex.process.Processes;
import dev.cortex.process.RunningProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks with a dialog on the machine the server runs on, which is the human's own machine for a
 * local MCP server: {@code zenity} on Linux and other Unix desktops, {@code osascript} on macOS, a
 * PowerShell message box on Windows. The message reaches zenity as an argument with markup off, and
 * the others through an environment variable, so no text is ever parsed as code.
 */
final class NativeDialog implements Channel {
  private static final Logger log = LoggerFactory.getLogger(NativeDialog.class);

  static final String NAME = "native";
  static final String DISABLE = "CORTEX_MCP_DISABLE_NATIVE_CONFIRM";
  private static final String MESSAGE_VARIABLE = "CORTEX_CONFIRM_MESSAGE";

  private enum Platform {
    LINUX,
    MACOS,
    WINDOWS
  }

  private final Map<String, String> environment;
  private final Platform platform;
  private final boolean disabled;

  NativeDialog(Map<String, String> environment, String osName) {
    this.environment = Map.copyOf(environment);
    String os = osName.toLowerCase(Locale.ROOT);
    this.platform =
        os.startsWith("mac") || os.startsWith("darwin")
            ? Platform.MACOS
            : os.startsWith("windows") ? Platform.WINDOWS : Platform.LINUX;
    this.disabled = isSet(environment.get(DISABLE));
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Optional<String> unavailable() {
    if (disabled) {
      return Optional.of("native dialogs are turned off (" + DISABLE + "=1)");
    }
    return switch (platform) {
      case LINUX -> {
        if (blank("DISPLAY") && blank("WAYLAND_DISPLAY")) {
          yield Optional.of("no graphical display here (DISPLAY and WAYLAND_DISPLAY are unset)");
        }
        yield program("zenity").isPresent()
            ? Optional.empty()
            : Optional.of("zenity, the dialog program, is not installed");
      }
      case MACOS ->
          program("osascript").isPresent()
              ? Optional.empty()
              : Optional.of("osascript is not available");
      case WINDOWS ->
          program("powershell.exe").or(() -> program("powershell")).isPresent()
              ? Optional.empty()
              : Optional.of("PowerShell is not available");
    };
  }

  @Override
  public CompletableFuture<Boolean> ask(Confirmation confirmation, Duration within) {
    List<String> command = command(confirmation, within);
    Map<String, String> env = new java.util.LinkedHashMap<>(environment);
    // zenity takes its exit codes from ZENITY_* (else DIALOG_*) variables: inherited ones could
    // turn a cancelled or timed-out dialog into exit 0, an approval. Fix every code here.
    env.keySet().removeIf(name -> name.startsWith("DIALOG_"));
    env.put("ZENITY_OK", "0");
    env.put("ZENITY_CANCEL", "1");
    env.put("ZENITY_ESC", "1");
    env.put("ZENITY_TIMEOUT", "5");
    env.put("ZENITY_ERROR", "255");
    env.put("ZENITY_EXTRA", "1");
    env.put(MESSAGE_VARIABLE, confirmation.message());
    CompletableFuture<Boolean> answer = new CompletableFuture<>();
    RunningProcess process;
    try {
      process =
          Processes.start(
              ProcessSpec.builder(command, env).capture(64 * 1024, 0).build(), OutputListener.NONE);
    } catch (IOException | IllegalArgumentException e) {
      answer.completeExceptionally(e);
      return answer;
    }
    Thread waiter =
        new Thread(
            () -> {
              try {
                ProcessResult result = process.await();
                answer.complete(
                    decision(result.exitCode(), result.stdout().text(StandardCharsets.UTF_8)));
              } catch (InterruptedException | RuntimeException e) {
                answer.completeExceptionally(e);
              }
            },
            "cortex-confirm-dialog");
    waiter.setDaemon(true);
    waiter.start();
    answer.whenComplete(
        (value, failure) -> {
          if (answer.isCancelled() || process.isAlive()) {
            process.terminate();
            log.debug("native dialog withdrawn");
          }
        });
    return answer;
  }

  /** The dialog program's command line. */
  List<String> command(Confirmation confirmation, Duration within) {
    long seconds = Math.max(1, within.toSeconds());
    return switch (platform) {
      case LINUX ->
          List.of(
              program("zenity").map(Path::toString).orElse("zenity"),
              "--question",
              "--title=Cortex: " + confirmation.title(),
              "--no-markup",
              "--width=560",
              "--ok-label=" + confirmation.action(),
              "--cancel-label=Cancel",
              "--timeout=" + seconds,
              "--text=" + confirmation.message());
      case MACOS ->
          List.of(
              program("osascript").map(Path::toString).orElse("/usr/bin/osascript"),
              "-e",
              "set r to display dialog (system attribute \""
                  + MESSAGE_VARIABLE
                  + "\") with title \"Cortex\" buttons {\"Cancel\", \""
                  + confirmation.action()
                  + "\"} default button \"Cancel\" cancel button \"Cancel\" with icon caution"
                  + " giving up after "
                  + seconds,
              "-e",
              "if gave up of r then return \"\"",
              "-e",
              "return button returned of r");
      case WINDOWS ->
          List.of(
              program("powershell.exe")
                  .or(() -> program("powershell"))
                  .map(Path::toString)
                  .orElse("powershell.exe"),
              "-NoProfile",
              "-NonInteractive",
              "-Command",
              "Add-Type -AssemblyName System.Windows.Forms; [System.Windows.Forms.MessageBox]::Show("
                  + "$env:"
                  + MESSAGE_VARIABLE
                  + ", 'Cortex', 'YesNo', 'Question', 'Button2')");
    };
  }

  /** True approved, false declined, null no answer (the dialog timed out). */
  private Boolean decision(int code, String out) {
    String answer = out.strip();
    return switch (platform) {
      case LINUX -> {
        if (code == 0) {
          yield true;
        }
        if (code == 1) {
          yield false;
        }
        if (code == 5) {
          yield null;
        }
        throw new IllegalStateException("zenity exited with " + code);
      }
      case MACOS -> {
        if (code == 1 && answer.isEmpty()) {
          yield false;
        }
        if (code != 0) {
          throw new IllegalStateException("osascript exited with " + code);
        }
        yield answer.isEmpty() ? null : Boolean.valueOf(!answer.equals("Cancel"));
      }
      case WINDOWS -> {
        if (code != 0) {
          throw new IllegalStateException("PowerShell exited with " + code);
        }
        yield answer.equals("Yes");
      }
    };
  }

  /** The program {@code name} on this environment's PATH ({@code Path} on Windows will do). */
  private Optional<Path> program(String name) {
    String path = environment.get("PATH");
    if (path == null && platform == Platform.WINDOWS) {
      path = environment.get("Path");
    }
    if (path == null) {
      return Optional.empty();
    }
    List<String> names = new ArrayList<>(List.of(name));
    if (platform == Platform.WINDOWS && !name.endsWith(".exe")) {
      names.add(name + ".exe");
    }
    Map<String, String> search = Map.of("PATH", path);
    for (String candidate : names) {
      Optional<Path> found = Executables.find(candidate, search, null);
      if (found.isPresent()) {
        return found;
      }
    }
    return Optional.empty();
  }

  private boolean blank(String variable) {
    String value = environment.get(variable);
    return value == null || value.isBlank();
  }

  /** Whether a switch variable is on: 1, true or yes. */
  static boolean isSet(String value) {
    return value != null
        && List.of("1", "true", "yes").contains(value.strip().toLowerCase(Locale.ROOT));
  }
}
