package dev.cortex.e2e.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CortexProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person who starts {@code cortex mcp} on a terminal is told how to connect a client. The
 * terminal is a real pseudo-terminal made by util-linux {@code script}.
 */
class TerminalHintIT {
  @TempDir Path home;

  @Test
  void mcpOnATerminal_printsMcpServersJsonWithTheLauncher_andKeepsServingUntilEndOfInput()
      throws Exception {
    String command =
        CortexProcess.command("mcp", "--bundles", "core").stream()
            .map(a -> "'" + a + "'")
            .collect(Collectors.joining(" "));
    ProcessBuilder builder = new ProcessBuilder(List.of("script", "-qec", command, "/dev/null"));
    Map<String, String> env = CortexProcess.env(home);
    env.put("CORTEX_LAUNCHER", "/opt/cortex/bin/cortex");
    builder.environment().clear();
    builder.environment().putAll(env);
    builder.redirectErrorStream(true);
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));

    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(output).contains("\"mcpServers\"").contains("\"cortex-core\"");
    assertThat(output).contains("\"command\" : \"/opt/cortex/bin/cortex\"");
    assertThat(output).contains("\"mcp\", \"--bundles\", \"core\"");
  }
}
