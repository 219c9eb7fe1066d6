package dev.cortex.e2e.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Shell completion and manual pages, made from the command tree: each names the verbs and options
 * there are, and the shells and man(1) take them.
 */
class ShellHelpIT {
  @TempDir Path home;

  String run(String... args) throws Exception {
    CortexProcess.Finished done = CortexProcess.run(CortexProcess.env(home), args);
    assertThat(done.exitCode()).as(done.stderr()).isZero();
    return done.stdout();
  }

  static String shell(Path script, String... command) throws Exception {
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .directory(script.getParent().toFile())
            .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(out).isZero();
    return out;
  }

  @Test
  void bashCompletion_completesVerbsAndTheirOptions_inARealBash() throws Exception {
    Path script = Files.writeString(home.resolve("cortex.bash"), run("completion", "bash"));

    String words =
        shell(
            script,
            "bash",
            "-c",
            "source ./cortex.bash; COMP_WORDS=(cortex ser); COMP_CWORD=1;"
                + " _complete_cortex cortex ser cortex 2>/dev/null; echo \"${COMPREPLY[@]}\";"
                + " COMP_WORDS=(cortex mcp --read); COMP_CWORD=2;"
                + " _complete_cortex cortex --read mcp 2>/dev/null; echo \"${COMPREPLY[@]}\"");

    List<String> lines = words.lines().toList();
    assertThat(lines.get(0)).contains("server");
    assertThat(lines.get(1)).contains("--read-only");
  }

  @Test
  void zshAndFishCompletion_areMadeFromTheSameTree_andAnUnknownShellIsBadUsage() throws Exception {
    String zsh = run("completion", "zsh");
    assertThat(zsh).startsWith("#compdef cortex").contains("bashcompinit");
    String fish = run("completion", "fish");
    assertThat(fish)
        .contains("complete -c cortex -n '__fish_use_subcommand' -a 'mcp'")
        .contains("-l read-only")
        .contains("__fish_seen_subcommand_from server");
    CortexProcess.Finished bad = CortexProcess.run(CortexProcess.env(home), "completion", "tcsh");
    assertThat(bad.exitCode()).isEqualTo(CortexProcess.USAGE);
    assertThat(bad.stderr()).contains("bash, zsh or fish");
  }

  @Test
  void manpages_oneAVerb_renderWithMan() throws Exception {
    Path dir = home.resolve("man1");
    CortexProcess.Finished done =
        CortexProcess.run(CortexProcess.env(home), "manpages", dir.toString());
    assertThat(done.exitCode()).as(done.stderr()).isZero();

    assertThat(dir.resolve("cortex.1")).exists();
    assertThat(dir.resolve("cortex-mcp.1")).exists();
    assertThat(dir.resolve("cortex-tools-list.1")).exists();
    assertThat(dir.resolve("cortex-server-status.1")).exists();
    String page = Files.readString(dir.resolve("cortex-mcp.1"));
    assertThat(page)
        .startsWith(".TH \"CORTEX-MCP\" 1")
        .contains(".SH OPTIONS")
        .contains("read\\-only");

    String rendered =
        shell(
            dir.resolve("cortex-mcp.1"),
            "man",
            "--no-hyphenation",
            "-l",
            "-P",
            "cat",
            "cortex-mcp.1");
    assertThat(rendered).contains("--read-only").contains("SYNOPSIS").contains("cortex mcp");
  }
}
