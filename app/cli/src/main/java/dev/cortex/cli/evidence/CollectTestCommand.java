package dev.cortex.cli.evidence;

import dev.cortex.base.Json;
import dev.cortex.cli.AllGroups;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.evidence.TestCollector;
import dev.cortex.storage.StorageBusyException;
import dev.cortex.storage.StorageException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code cortex collect-test}: run tests of a clean checkout and record a receipt. */
@Command(
    name = "collect-test",
    mixinStandardHelpOptions = true,
    description = {
      "Run 1 to 8 tracked test files of this Git checkout and record a receipt for a claim's criterion.",
      "The working tree must be clean, and HEAD the same before and after. The receipt (JSON) goes to"
          + " stdout, the tests' output to stderr. Exit 0: saved, tests passed; 1: saved, tests failed;"
          + " 2: nothing recorded (bad input, dirty tree, launch error, or a run past 2 minutes).",
      "The runner is chosen by file type (JUnit classes through Maven, node --test, pytest, go test),"
          + " or given with --runner, which receives the files as arguments."
    })
public final class CollectTestCommand implements Callable<Integer> {
  private final Io io;

  @Parameters(index = "0", paramLabel = "PROJECT", description = "The project.")
  String project;

  @Parameters(index = "1", paramLabel = "CLAIM", description = "The claim ID.")
  String claim;

  @Parameters(index = "2", paramLabel = "CRITERION", description = "The criterion ID.")
  String criterion;

  @Parameters(
      index = "3..*",
      paramLabel = "FILES",
      description = "Test files relative to the Git root, after '--'.")
  List<String> files = List.of();

  @Option(
      names = "--runner",
      paramLabel = "CMD",
      description = "Command that runs the files, e.g. 'npx vitest run'.")
  String runner;

  public CollectTestCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    TestCollector collector =
        new TestCollector(
            AllGroups.database(io), Clock.systemUTC(), TestCollector.DEFAULT_TIMEOUT, io.err());
    try {
      TestCollector.Receipt receipt =
          collector.collect(
              new TestCollector.Request(
                  project, claim, criterion, runner, files, Path.of("").toAbsolutePath()));
      io.out().println(Json.writePretty(receipt));
      return receipt.exitCode() == 0 ? CortexCommand.OK : CortexCommand.FAILED;
    } catch (TestCollector.Refused e) {
      return CortexCommand.usage(io, "cortex collect-test: " + e.getMessage());
    } catch (StorageException e) {
      io.err()
          .println(
              "cortex collect-test: the ledger database could not be used"
                  + (e instanceof StorageBusyException ? " (busy in another process)" : "")
                  + "; no receipt was recorded.");
      return CortexCommand.USAGE;
    }
  }
}
