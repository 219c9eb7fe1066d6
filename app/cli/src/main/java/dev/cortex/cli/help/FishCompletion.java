package dev.cortex.cli.help;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** The completion script of fish, made from the command tree: verbs, then each verb's options. */
final class FishCompletion {
  private FishCompletion() {}

  static String script(CommandLine root) {
    StringBuilder text =
        new StringBuilder("# Cortex's completion for fish (made by cortex completion fish).\n")
            .append("complete -c cortex -f\n");
    add(root, List.of(), text);
    return text.toString();
  }

  private static void add(CommandLine command, List<String> path, StringBuilder text) {
    String condition = condition(command, path);
    for (var sub : command.getSubcommands().entrySet()) {
      CommandSpec spec = sub.getValue().getCommandSpec();
      if (spec.usageMessage().hidden()) {
        continue;
      }
      text.append("complete -c cortex -n ")
          .append(quote(condition))
          .append(" -a ")
          .append(quote(sub.getKey()))
          .append(" -d ")
          .append(quote(summary(spec.usageMessage().description())))
          .append('\n');
    }
    for (OptionSpec option : command.getCommandSpec().options()) {
      if (option.hidden()) {
        continue;
      }
      text.append("complete -c cortex -n ").append(quote(condition));
      for (String name : option.names()) {
        if (name.startsWith("--")) {
          text.append(" -l ").append(name.substring(2));
        } else if (name.startsWith("-") && name.length() == 2) {
          text.append(" -s ").append(name.substring(1));
        }
      }
      if (option.arity().max() > 0) {
        text.append(" -r");
        if (option.completionCandidates() != null) {
          List<String> values = new ArrayList<>();
          option.completionCandidates().forEach(values::add);
          text.append(" -a ").append(quote(String.join(" ", values)));
        }
      }
      text.append(" -d ").append(quote(summary(option.description()))).append('\n');
    }
    for (var sub : command.getSubcommands().entrySet()) {
      if (!sub.getValue().getCommandSpec().usageMessage().hidden()) {
        List<String> deeper = new ArrayList<>(path);
        deeper.add(sub.getKey());
        add(sub.getValue(), deeper, text);
      }
    }
  }

  /** The condition under which a command's words apply: its path typed, and no subcommand yet. */
  private static String condition(CommandLine command, List<String> path) {
    List<String> parts = new ArrayList<>();
    if (path.isEmpty()) {
      parts.add("__fish_use_subcommand");
    } else {
      for (String word : path) {
        parts.add("__fish_seen_subcommand_from " + word);
      }
      if (!command.getSubcommands().isEmpty()) {
        parts.add(
            "not __fish_seen_subcommand_from "
                + String.join(" ", command.getSubcommands().keySet()));
      }
    }
    return String.join("; and ", parts);
  }

  private static String summary(String[] description) {
    if (description.length == 0) {
      return "";
    }
    String first = description[0].replaceAll("\\$\\{[^}]*}", "").strip();
    int end = first.indexOf(". ");
    return end < 0 ? first : first.substring(0, end + 1);
  }

  private static String quote(String text) {
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'";
  }
}
