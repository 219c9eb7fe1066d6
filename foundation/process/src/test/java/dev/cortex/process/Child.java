package dev.cortex.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/** {@link ChildJvm} as a real process, on this test's class path. */
final class Child implements AutoCloseable {
  final Process process;
  private final BufferedReader out;

  private Child(Process process) {
    this.process = process;
    this.out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
  }

  static Child start(String mode) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ProcessBuilder builder =
        new ProcessBuilder(
            List.of(
                java,
                "-cp",
                System.getProperty("java.class.path"),
                ChildJvm.class.getName(),
                mode));
    builder.redirectError(ProcessBuilder.Redirect.INHERIT);
    return new Child(builder.start());
  }

  /** The pid the child reports on its first line. */
  long reportedPid() throws IOException {
    String line = out.readLine();
    assertThat(line).as("the child's first line").startsWith("pid ");
    return Long.parseLong(line.substring(4).strip());
  }

  void awaitLine(String expected) throws IOException {
    assertThat(out.readLine()).isEqualTo(expected);
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }
}
