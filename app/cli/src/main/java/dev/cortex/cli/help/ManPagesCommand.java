package dev.cortex.cli.help;

import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code cortex manpages DIR}: writes a manual page per verb, made from the command tree. */
@Command(
    name = "manpages",
    mixinStandardHelpOptions = true,
    description = {
      "Write the manual pages (cortex.1, cortex-mcp.1, cortex-tools-list.1, …) into a folder.",
      "The runtime image ships them in share/man/man1 (man -M share/man cortex)."
    })
public final class ManPagesCommand implements Callable<Integer> {
  private final Io io;

  @Spec CommandSpec spec;

  @Parameters(index = "0", paramLabel = "DIR", description = "The folder to write them into.")
  Path dir;

  public ManPagesCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() throws IOException {
    Files.createDirectories(dir);
    int written = ManPages.write(spec.root().commandLine(), dir);
    io.err().println("cortex: wrote " + written + " manual pages to " + dir);
    return CortexCommand.OK;
  }
}
