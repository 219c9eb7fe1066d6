package dev.cortex.cli.evidence;

import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.evidence.EvidenceGroup;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code cortex evidence}: what a human does to the ledger that no agent tool may do. */
@Command(
    name = "evidence",
    description = "Administer the evidence ledger.",
    mixinStandardHelpOptions = true)
public final class EvidenceCommand implements Callable<Integer> {
  private final Io io;

  public EvidenceCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    return CortexCommand.usage(io, "cortex evidence: say 'set-policy PROJECT POLICY'.");
  }

  /** {@code cortex evidence set-policy PROJECT POLICY}. */
  @Command(
      name = "set-policy",
      mixinStandardHelpOptions = true,
      description = {
        "Set the review policy of a project, creating the project if it does not exist.",
        "strict-1 (the default of new projects) admits no caller-supplied evidence; provisional-1 admits"
            + " user_attested and tool_output_recorded evidence, with provisional assurance."
      })
  public static final class SetPolicy implements Callable<Integer> {
    private final Io io;

    @Parameters(index = "0", paramLabel = "PROJECT", description = "The project ID.")
    String project;

    @Parameters(index = "1", paramLabel = "POLICY", description = "strict-1 or provisional-1.")
    String policy;

    public SetPolicy(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      String set =
          EvidenceGroup.provision(
              AllGroups.database(io).get(), project, policy, Clock.systemUTC().instant());
      io.out().println("project " + project + ": policy " + set);
      return CortexCommand.OK;
    }
  }
}
