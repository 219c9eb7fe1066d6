package dev.cortex.cli.help;

import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code cortex completion SHELL}: the completion script of a shell, made from the command tree.
 */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    description = {
      "Print the shell completion script for bash, zsh or fish.",
      "bash: source <(cortex completion bash), or save it as"
          + " ~/.local/share/bash-completion/completions/cortex. zsh: save it as _cortex in a"
          + " folder of $fpath. fish: save it as ~/.config/fish/completions/cortex.fish. The"
          + " runtime image ships all three under share/."
    })
public final class CompletionCommand implements Callable<Integer> {
  private final Io io;

  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "SHELL",
      description = "bash, zsh or fish.",
      completionCandidates = Shells.class)
  String shell;

  public CompletionCommand(Io io) {
    this.io = io;
  }

  /** The shells there are scripts for. */
  static final class Shells extends java.util.ArrayList<String> {
    private static final long serialVersionUID = 1L;

    Shells() {
      super(java.util.List.of("bash", "zsh", "fish"));
    }
  }

  @Override
  public Integer call() {
    CommandLine root = spec.root().commandLine();
    switch (shell) {
      case "bash" -> io.out().print(bash(root));
      case "zsh" -> io.out().print(zsh(root));
      case "fish" -> io.out().print(FishCompletion.script(root));
      default -> {
        return CortexCommand.usage(
            io, "cortex completion: '" + shell + "' is no shell it knows; use bash, zsh or fish.");
      }
    }
    io.out().flush();
    return CortexCommand.OK;
  }

  static String bash(CommandLine root) {
    return AutoComplete.bash("cortex", root);
  }

  /** picocli's script, which zsh runs through its bash completion layer. */
  static String zsh(CommandLine root) {
    return "#compdef cortex\n"
        + "# Cortex's completion for zsh, through zsh's bash completion layer.\n"
        + "autoload -U +X compinit && compinit\n"
        + "autoload -U +X bashcompinit && bashcompinit\n"
        + bash(root);
  }
}
