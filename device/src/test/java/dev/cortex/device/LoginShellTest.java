package dev.cortex.device;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Cancellation;
import dev.cortex.protocol.hub.Actions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The login environment resolved once: a variable the profile exports is there, the profile is not
 * read again per command, an edit of the profile is picked up, functions are not carried; the
 * per-command login shell reads the profile every time; a profile that fails falls back to it.
 */
class LoginShellTest {
  @TempDir Path home;
  @TempDir Path work;

  Map<String, String> env() {
    return Map.of("HOME", home.toString(), "PATH", System.getenv("PATH"), "LANG", "C.UTF-8");
  }

  void profile(String body) throws Exception {
    Path file = home.resolve(".bash_profile");
    FileTime before = Files.exists(file) ? Files.getLastModifiedTime(file) : null;
    Files.writeString(file, body);
    if (before != null) {
      // A new modification time however quick the edit.
      Files.setLastModifiedTime(file, FileTime.fromMillis(before.toMillis() + 2_000));
    }
  }

  int reads() throws Exception {
    Path log = home.resolve("reads");
    return Files.exists(log) ? Files.readAllLines(log).size() : 0;
  }

  String run(LoginShell shell, String command) throws Exception {
    ShellAction action =
        new ShellAction(
            shell,
            work,
            1 << 20,
            false,
            new Jobs(work.resolve("jobs"), shell, work, Clock.systemUTC()));
    Actions.BashResult result =
        action.run(new Actions.Bash(command, 30, null, false), Cancellation.NONE, (s, t) -> {});
    assertThat(result.exitCode()).as(result.output()).isZero();
    return result.output().strip();
  }

  static final String PROFILE =
      "echo read >> \"$HOME/reads\"\n"
          + "echo 'Welcome, PATH=/nowhere'\n"
          + "export CORTEX_FROM_PROFILE=%s\n"
          + "export PATH=\"$HOME/tools:$PATH\"\n"
          + "greet() { echo hi; }\n";

  @Test
  void resolvedOnce_carriesExportedVariables_andReadsTheProfileOnce() throws Exception {
    profile(PROFILE.formatted("one"));
    LoginShell shell = LoginShell.resolvedOnce(env());
    assertThat(run(shell, "echo $CORTEX_FROM_PROFILE")).isEqualTo("one");
    assertThat(run(shell, "echo $PATH")).startsWith(home.resolve("tools") + ":");
    assertThat(run(shell, "type greet >/dev/null 2>&1 && echo function || echo none"))
        .isEqualTo("none");
    assertThat(reads()).isEqualTo(1);
    assertThat(shell.now().flag()).isEqualTo("-c");

    // The profile changes: the next command sees the change, and it is read once more.
    profile(PROFILE.formatted("two"));
    assertThat(run(shell, "echo $CORTEX_FROM_PROFILE")).isEqualTo("two");
    assertThat(run(shell, "echo $CORTEX_FROM_PROFILE")).isEqualTo("two");
    assertThat(reads()).isEqualTo(2);
  }

  @Test
  void perCommand_readsTheProfileForEveryCommand_asBefore() throws Exception {
    profile(PROFILE.formatted("each"));
    LoginShell shell = LoginShell.perCommand(env());
    // A login shell per command also shows what the profile prints, in every command's output.
    assertThat(run(shell, "echo $CORTEX_FROM_PROFILE")).isEqualTo("Welcome, PATH=/nowhere\neach");
    assertThat(run(shell, "type greet >/dev/null 2>&1 && echo function || echo none"))
        .endsWith("\nfunction");
    assertThat(reads()).isEqualTo(2);
    assertThat(shell.now().flag()).isEqualTo("-lc");
  }

  @Test
  void aBackgroundJob_runsInTheResolvedEnvironmentToo() throws Exception {
    profile(PROFILE.formatted("job"));
    LoginShell shell = LoginShell.resolvedOnce(env());
    Jobs jobs = new Jobs(work.resolve("jobs"), shell, work, Clock.systemUTC());
    Actions.JobInfo job =
        jobs.start("echo $CORTEX_FROM_PROFILE > " + work.resolve("out"), "bg", null);
    for (int i = 0; i < 500 && !Files.exists(work.resolve("out")); i++) {
      Thread.sleep(10);
    }
    Thread.sleep(50);
    assertThat(Files.readString(work.resolve("out")).strip()).isEqualTo("job");
    assertThat(job.id()).isNotBlank();
    assertThat(reads()).isEqualTo(1);
  }

  @Test
  void aProfileThatFails_fallsBackToALoginShellPerCommand() throws Exception {
    profile("echo read >> \"$HOME/reads\"\nexport CORTEX_FROM_PROFILE=broken\nexit 3\n");
    LoginShell shell = LoginShell.resolvedOnce(env());
    assertThat(shell.now().flag()).isEqualTo("-lc");
    assertThat(List.of("bash", "-lc", "x")).isEqualTo(shell.now().command("x"));
  }
}
