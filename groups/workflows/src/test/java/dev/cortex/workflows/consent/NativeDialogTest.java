package dev.cortex.workflows.consent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Linux dialog with a real fake zenity on PATH: a script that records and answers. */
class NativeDialogTest {
  static final Confirmation QUESTION =
      new Confirmation(
          Confirmation.Kind.RUN, "run x", "Run <b>x</b>?\nParameters:\n  dir = \"/etc\"", "Run");

  @TempDir Path bin;

  /** Writes a fake zenity that records its arguments and runs {@code body}. */
  Map<String, String> zenity(String body) throws Exception {
    Path script = bin.resolve("zenity");
    Files.writeString(
        script,
        "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done > \""
            + bin.resolve("args")
            + "\"\n"
            + body
            + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    return env();
  }

  Map<String, String> env() {
    Map<String, String> env = new HashMap<>();
    env.put("PATH", bin + ":/usr/bin:/bin");
    env.put("DISPLAY", ":99");
    return env;
  }

  static Boolean answer(NativeDialog dialog) throws Exception {
    return dialog.ask(QUESTION, Duration.ofSeconds(60)).get(20, TimeUnit.SECONDS);
  }

  @Test
  void zenityExit0_approves_andGetsTheMessageAsPlainText() throws Exception {
    NativeDialog dialog = new NativeDialog(zenity("exit 0"), "Linux");

    assertThat(dialog.unavailable()).isEmpty();
    assertThat(answer(dialog)).isTrue();
    List<String> args = Files.readAllLines(bin.resolve("args"));
    assertThat(args).contains("--question", "--no-markup", "--ok-label=Run", "--timeout=60");
    assertThat(String.join("\n", args)).contains("--text=Run <b>x</b>?\nParameters:");
  }

  @Test
  void zenityExit1_declines_andOtherExits_fail() throws Exception {
    assertThat(answer(new NativeDialog(zenity("exit 1"), "Linux"))).isFalse();
    assertThat(answer(new NativeDialog(zenity("exit 5"), "Linux"))).as("its own timeout").isNull();
    CompletableFuture<Boolean> broken =
        new NativeDialog(zenity("exit 3"), "Linux").ask(QUESTION, Duration.ofSeconds(60));
    assertThat(broken)
        .failsWithin(Duration.ofSeconds(20))
        .withThrowableOfType(ExecutionException.class);
  }

  @Test
  void inheritedZenityExitCodes_cannotTurnACancelOrTimeoutIntoApproval() throws Exception {
    // Like the real zenity: a timed-out dialog exits with $ZENITY_TIMEOUT (else $DIALOG_TIMEOUT),
    // a cancelled one with $ZENITY_CANCEL (else $DIALOG_CANCEL).
    Map<String, String> timedOut = zenity("exit ${ZENITY_TIMEOUT:-${DIALOG_TIMEOUT:-5}}");
    timedOut.put("ZENITY_TIMEOUT", "0");
    timedOut.put("DIALOG_TIMEOUT", "0");
    assertThat(answer(new NativeDialog(timedOut, "Linux"))).isNull();
    Map<String, String> cancelled = zenity("exit ${ZENITY_CANCEL:-${DIALOG_CANCEL:-1}}");
    cancelled.put("ZENITY_CANCEL", "0");
    cancelled.put("DIALOG_CANCEL", "0");
    assertThat(answer(new NativeDialog(cancelled, "Linux"))).isFalse();
  }

  @Test
  void unavailable_withoutZenity_withoutDisplay_orTurnedOff() throws Exception {
    assertThat(new NativeDialog(env(), "Linux").unavailable())
        .hasValue("zenity, the dialog program, is not installed");
    Map<String, String> headless = zenity("exit 0");
    headless.remove("DISPLAY");
    assertThat(new NativeDialog(headless, "Linux").unavailable().orElseThrow())
        .contains("no graphical display");
    Map<String, String> off = zenity("exit 0");
    off.put("CORTEX_MCP_DISABLE_NATIVE_CONFIRM", "1");
    assertThat(new NativeDialog(off, "Linux").unavailable().orElseThrow())
        .contains("CORTEX_MCP_DISABLE_NATIVE_CONFIRM=1");
  }

  @Test
  void withdrawing_killsTheDialog() throws Exception {
    Path withdrawn = bin.resolve("withdrawn");
    NativeDialog dialog =
        new NativeDialog(
            zenity(
                "trap 'echo yes > \""
                    + withdrawn
                    + "\"; exit 1' TERM\necho up > \""
                    + bin.resolve("up")
                    + "\"\nsleep 60 &\nwait"),
            "Linux");
    CompletableFuture<Boolean> answer = dialog.ask(QUESTION, Duration.ofSeconds(60));
    Instant deadline = Instant.now().plusSeconds(20);
    while (!Files.exists(bin.resolve("up")) && Instant.now().isBefore(deadline)) {
      Thread.sleep(20);
    }

    answer.cancel(true);

    while (!Files.exists(withdrawn) && Instant.now().isBefore(deadline)) {
      Thread.sleep(20);
    }
    assertThat(withdrawn).exists();
  }

  @Test
  void macosAndWindows_passTheMessageThroughTheEnvironment_notTheScript() {
    Map<String, String> env = env();
    List<String> mac = new NativeDialog(env, "Mac OS X").command(QUESTION, Duration.ofMinutes(5));
    List<String> windows =
        new NativeDialog(env, "Windows 11").command(QUESTION, Duration.ofMinutes(5));

    assertThat(String.join(" ", mac))
        .contains("system attribute \"CORTEX_CONFIRM_MESSAGE\"")
        .contains("giving up after 300")
        .doesNotContain("Run <b>x</b>");
    assertThat(String.join(" ", windows))
        .contains("$env:CORTEX_CONFIRM_MESSAGE")
        .doesNotContain("Run <b>x</b>");
  }
}
