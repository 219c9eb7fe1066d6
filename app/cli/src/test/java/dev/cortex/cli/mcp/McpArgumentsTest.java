package dev.cortex.cli.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.cli.Io;
import java.io.ByteArrayInputStream;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/** The quick parser of {@code cortex mcp} agrees with picocli, or steps aside for it. */
class McpArgumentsTest {
  static final Io IO =
      new Io(
          new ByteArrayInputStream(new byte[0]), new PrintStream(System.err), System.err, Map.of());

  static String[] split(String line) {
    return line.isEmpty() ? new String[0] : line.split(" ");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "mcp",
        "mcp --bundles core,evidence",
        "mcp --bundles=core",
        "mcp --http 0",
        "mcp --http=8080 --bind 0.0.0.0 --bundles web",
        "mcp --bind ::1 --http 65535",
        "mcp --bundles [\"cortex-core\"]"
      })
  void parseQuickly_commonLines_matchPicocli(String line) {
    String[] args = split(line);
    McpCommand quick = McpCommand.parseQuickly(IO, args);
    McpCommand full = new McpCommand(IO);
    new CommandLine(full).parseArgs(Arrays.copyOfRange(args, 1, args.length));

    assertThat(quick).isNotNull();
    assertThat(quick.bundles).isEqualTo(full.bundles);
    assertThat(quick.httpPort).isEqualTo(full.httpPort);
    assertThat(quick.bind).isEqualTo(full.bind);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "tools list",
        "mcp --help",
        "mcp -h",
        "mcp --version",
        "mcp --http",
        "mcp --http abc",
        "mcp --bundles",
        "mcp --unknown x",
        "mcp stray"
      })
  void parseQuickly_anythingElse_leavesItToPicocli(String line) {
    assertThat(McpCommand.parseQuickly(IO, split(line))).isNull();
  }
}
