package dev.cortex.cli.workflows;

import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code cortex status}: the version, the home, the engine and how many runs there are. */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = "Version, home, engine and run counts.")
public final class StatusCommand implements Callable<Integer> {
  private final Io io;
  @Mixin WorkflowVerb.Answer answer = new WorkflowVerb.Answer();

  public StatusCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() throws Exception {
    return WorkflowVerb.run(
        io,
        workflows -> {
          answer.print(io, workflows.status(), WorkflowText::status);
          return CortexCommand.OK;
        });
  }
}
