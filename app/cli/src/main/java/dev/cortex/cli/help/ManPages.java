package dev.cortex.cli.help;

import dev.cortex.cli.Version;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Manual pages in roff (man(7)) from the command tree: one a verb, with its synopsis, description,
 * options, arguments, subcommands and the pages it relates to.
 */
final class ManPages {
  private ManPages() {}

  /** Writes every visible command's page into {@code dir}; returns how many. */
  static int write(CommandLine root, Path dir) throws IOException {
    List<CommandLine> all = new ArrayList<>();
    collect(root, all);
    for (CommandLine command : all) {
      Files.writeString(
          dir.resolve(name(command.getCommandSpec()) + ".1"),
          page(command),
          StandardCharsets.UTF_8);
    }
    return all.size();
  }

  private static void collect(CommandLine command, List<CommandLine> all) {
    all.add(command);
    for (CommandLine sub : command.getSubcommands().values()) {
      if (!sub.getCommandSpec().usageMessage().hidden()) {
        collect(sub, all);
      }
    }
  }

  /** {@code cortex-tools-list} for {@code cortex tools list}. */
  static String name(CommandSpec spec) {
    return spec.qualifiedName("-");
  }

  static String page(CommandLine command) {
    CommandSpec spec = command.getCommandSpec();
    String[] description = spec.usageMessage().description();
    StringBuilder page = new StringBuilder();
    page.append(".TH \"")
        .append(name(spec).toUpperCase(Locale.ROOT))
        .append("\" 1 \"\" \"cortex ")
        .append(escape(Version.get()))
        .append("\" \"Cortex Manual\"\n");
    page.append(".SH NAME\n")
        .append(name(spec))
        .append(" \\- ")
        .append(escape(description.length == 0 ? "" : plain(description[0])))
        .append('\n');
    page.append(".SH SYNOPSIS\n.nf\n")
        .append(
            escape(
                new CommandLine.Help(
                        spec, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF))
                    .synopsis(0)
                    .strip()))
        .append("\n.fi\n");
    if (description.length > 0) {
      page.append(".SH DESCRIPTION\n");
      for (String paragraph : description) {
        page.append(".PP\n").append(escape(plain(paragraph))).append('\n');
      }
    }
    List<PositionalParamSpec> positionals =
        spec.positionalParameters().stream().filter(p -> !p.hidden()).toList();
    if (!positionals.isEmpty()) {
      page.append(".SH ARGUMENTS\n");
      for (PositionalParamSpec parameter : positionals) {
        page.append(".TP\n.I ")
            .append(escape(parameter.paramLabel()))
            .append('\n')
            .append(escape(plain(String.join(" ", parameter.description()), parameter)))
            .append('\n');
      }
    }
    List<OptionSpec> options = spec.options().stream().filter(o -> !o.hidden()).toList();
    if (!options.isEmpty()) {
      page.append(".SH OPTIONS\n");
      for (OptionSpec option : options) {
        page.append(".TP\n.B ").append(escape(String.join(", ", option.names())));
        if (option.arity().max() > 0) {
          page.append(" \\fI").append(escape(option.paramLabel())).append("\\fR");
        }
        page.append('\n')
            .append(escape(plain(String.join(" ", option.description()), option)))
            .append('\n');
      }
    }
    Map<String, CommandLine> subcommands = command.getSubcommands();
    if (!subcommands.isEmpty()) {
      page.append(".SH COMMANDS\n");
      for (var sub : subcommands.entrySet()) {
        CommandSpec subSpec = sub.getValue().getCommandSpec();
        if (subSpec.usageMessage().hidden()) {
          continue;
        }
        String[] text = subSpec.usageMessage().description();
        page.append(".TP\n.B ")
            .append(escape(sub.getKey()))
            .append('\n')
            .append(escape(text.length == 0 ? "" : plain(text[0])))
            .append(" See \\fB")
            .append(name(subSpec))
            .append("\\fR(1).\n");
      }
    }
    page.append(".SH SEE ALSO\n");
    List<String> related = new ArrayList<>();
    if (spec.parent() != null) {
      related.add("\\fB" + name(spec.parent()) + "\\fR(1)");
    }
    if (spec.parent() != null && spec.parent().parent() != null) {
      related.add("\\fBcortex\\fR(1)");
    }
    related.add("the README and docs/ of Cortex");
    page.append(String.join(", ", related)).append('\n');
    return page.toString();
  }

  /** A description with picocli's variables as their values. */
  private static String plain(String text, CommandLine.Model.ArgSpec arg) {
    String shown = arg.defaultValue() == null ? "" : arg.defaultValue();
    return plain(text.replace("${DEFAULT-VALUE}", shown));
  }

  private static String plain(String text) {
    return text.replaceAll("\\$\\{[^}]*}", "").replaceAll("\\s+", " ").strip();
  }

  /** Text safe in roff: backslashes and hyphens escaped, no line starting with a control dot. */
  static String escape(String text) {
    String escaped = text.replace("\\", "\\e").replace("-", "\\-");
    StringBuilder lines = new StringBuilder();
    for (String line : escaped.split("\n", -1)) {
      if (lines.length() > 0) {
        lines.append('\n');
      }
      if (line.startsWith(".") || line.startsWith("'")) {
        lines.append("\\&");
      }
      lines.append(line);
    }
    return lines.toString();
  }
}
