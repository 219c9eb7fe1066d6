package dev.cortex.e2e.release;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Checkout;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code bin/cortex}, the checkout's launcher, run from a copy of its files beside a jar with no
 * sources that could make it rebuild, on a stand-in {@code java} of a chosen version that records
 * how it was started (and writes the ahead-of-time cache it is asked to train): which lines of
 * {@code bin/jvm-options} each verb and Java version gets, the cache on Java 25 and newer, and the
 * settings that change them. The copy's options carry a marker, so the test sees them read.
 */
class CheckoutLauncherIT {
  private static final String MARKER = "-Dcortex.test.options=read";

  @TempDir Path dir;
  private Path root;
  private Path options;

  @BeforeEach
  void copyTheLauncher() throws IOException {
    root = Files.createDirectories(dir.resolve("checkout"));
    Path bin = Files.createDirectories(root.resolve("bin"));
    for (String file : List.of("cortex", "jvm.bash", "jvm-options", "aot-training-session")) {
      Files.copy(
          Checkout.path("bin/" + file), bin.resolve(file), StandardCopyOption.COPY_ATTRIBUTES);
    }
    Path target = Files.createDirectories(root.resolve("app/cli/target"));
    Files.writeString(target.resolve("cortex.jar"), "the stand-in java never opens it");
    options = bin.resolve("jvm-options");
    Files.writeString(
        options,
        Files.readString(options).replace("\nshort-lived=-", "\nshort-lived=" + MARKER + " -"));
  }

  @Test
  void shortLivedVerb_onJava23_getsTheShortLivedLineAndTheUnsafeFlag() throws Exception {
    Launch launch = launch(java(23), Map.of(), "--version");

    assertThat(launch.exitCode).as(launch.stderr).isZero();
    assertThat(launch.runs).hasSize(1);
    List<String> expected = new ArrayList<>(line("short-lived"));
    expected.addAll(line("from-java-23"));
    assertThat(launch.jvmOptions(0)).containsExactlyElementsOf(expected).contains(MARKER);
    assertThat(launch.arguments(0)).containsExactly("--version");
  }

  @ParameterizedTest
  @ValueSource(strings = {"server", "client", "worker"})
  void longLivedVerb_onJava21_getsTheLongLivedLineWithoutTheFlag(String verb) throws Exception {
    Launch launch = launch(java(21), Map.of(), verb, "--help");

    assertThat(launch.exitCode).as(launch.stderr).isZero();
    assertThat(launch.jvmOptions(0)).containsExactlyElementsOf(line("long-lived"));
    assertThat(launch.arguments(0)).containsExactly(verb, "--help");
  }

  @Test
  void java25_trainsTheStartupCacheOnceWithTheSameOptions_thenStartsWithIt() throws Exception {
    Path java = java(25);
    List<String> expected = new ArrayList<>(line("short-lived"));
    expected.addAll(line("from-java-23"));

    Launch first = launch(java, Map.of(), "mcp");
    Launch second = launch(java, Map.of(), "mcp");

    assertThat(first.exitCode).as(first.stderr).isZero();
    assertThat(first.runs).as("the training, then the run").hasSize(2);
    List<String> training = first.jvmOptions(0);
    assertThat(training.subList(0, expected.size())).containsExactlyElementsOf(expected);
    assertThat(training.get(expected.size())).startsWith("-XX:AOTCacheOutput=");
    assertThat(first.arguments(0)).containsExactly("mcp", "--bundles", "core,evidence");
    List<String> run = first.jvmOptions(1);
    assertThat(run.subList(0, expected.size())).containsExactlyElementsOf(expected);
    assertThat(run.get(expected.size())).startsWith("-XX:AOTCache=").endsWith("-jdk25.aot");
    assertThat(Path.of(run.get(expected.size()).substring("-XX:AOTCache=".length())))
        .hasContent("cache");
    assertThat(second.runs).as("no second training").hasSize(1);
    assertThat(second.jvmOptions(0)).isEqualTo(run);
  }

  @Test
  void javaOpts_replaceTheProfilesCollector_areAdded_andLeaveTheCacheOut() throws Exception {
    Launch launch =
        launch(java(25), Map.of("CORTEX_JAVA_OPTS", "-XX:+UseParallelGC -Dextra=1"), "status");

    assertThat(launch.runs).hasSize(1);
    List<String> expected = new ArrayList<>(line("short-lived"));
    expected.remove("-XX:+UseSerialGC");
    expected.addAll(line("from-java-23"));
    expected.addAll(List.of("-XX:+UseParallelGC", "-Dextra=1"));
    assertThat(launch.jvmOptions(0)).containsExactlyElementsOf(expected);
  }

  @Test
  void aotZero_leavesTheCacheOut() throws Exception {
    Launch launch = launch(java(25), Map.of("CORTEX_AOT", "0"), "status");

    assertThat(launch.runs).hasSize(1);
    assertThat(launch.jvmOptions(0)).noneMatch(option -> option.startsWith("-XX:AOTCache"));
  }

  @Test
  void withoutCortexJava_theNewestJdkFound_runs() throws Exception {
    Path java = java(99);
    Map<String, String> env = new HashMap<>();
    env.put("CORTEX_JAVA", "");
    env.put("JAVA_HOME", java.getParent().getParent().toString());
    env.put("CORTEX_AOT", "0");

    Launch launch = launch(java, env, "--version");

    assertThat(launch.exitCode).as(launch.stderr).isZero();
    assertThat(launch.runs).as("the stand-in java in JAVA_HOME ran").hasSize(1);
  }

  @Test
  void java16_isRefused_withExitCode2() throws Exception {
    Launch launch = launch(java(16), Map.of(), "--version");

    assertThat(launch.exitCode).isEqualTo(2);
    assertThat(launch.stderr).contains("cortex: needs Java 17 or newer; found Java 16");
    assertThat(launch.runs).isEmpty();
  }

  @Test
  void optionsFileWithoutTheProfile_stopsWithExitCode2() throws Exception {
    List<String> kept =
        Files.readAllLines(options).stream().filter(l -> !l.startsWith("long-lived=")).toList();
    Files.write(options, kept);

    Launch launch = launch(java(21), Map.of(), "server");

    assertThat(launch.exitCode).isEqualTo(2);
    assertThat(launch.stderr).contains("has no line 'long-lived='");
    assertThat(launch.runs).isEmpty();
  }

  /** The options of the line {@code name} of {@code bin/jvm-options}, as the copy has them. */
  private List<String> line(String name) throws IOException {
    for (String line : Files.readAllLines(options)) {
      if (line.startsWith(name + "=")) {
        return Arrays.asList(line.substring(name.length() + 1).strip().split(" +"));
      }
    }
    throw new AssertionError("bin/jvm-options has no line " + name);
  }

  /**
   * A stand-in JDK of {@code version}: its release file says so, and its {@code bin/java} appends
   * its arguments to {@code bin/java.runs} (a line each, then {@code --}), writes the cache a
   * training run asks for, and reads what it is given on standard input.
   */
  private Path java(int version) throws IOException {
    Path home = Files.createDirectories(dir.resolve("jdk-" + version + "/bin")).getParent();
    Files.writeString(home.resolve("release"), "JAVA_VERSION=\"" + version + ".0.1\"\n");
    Path java = home.resolve("bin/java");
    Files.writeString(
        java,
        """
        #!/bin/sh
        for arg in "$@"; do
          printf '%s\\n' "$arg" >> "$0.runs"
          case $arg in -XX:AOTCacheOutput=*) printf cache > "${arg#*=}" ;; esac
        done
        echo -- >> "$0.runs"
        cat > /dev/null
        echo "cortex stand-in"
        """);
    Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    return java;
  }

  private Launch launch(Path java, Map<String, String> settings, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(root.resolve("bin/cortex").toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().clear();
    builder.environment().put("PATH", "/usr/bin:/bin");
    builder.environment().put("HOME", dir.toString());
    builder.environment().put("CORTEX_HOME", dir.resolve("home").toString());
    builder.environment().put("CORTEX_JAVA", java.toString());
    builder.environment().putAll(settings);
    builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process process = builder.start();
    process.getInputStream().readAllBytes();
    String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("bin/cortex ended").isTrue();
    Path runs = java.resolveSibling("java.runs");
    List<List<String>> started = new ArrayList<>();
    if (Files.exists(runs)) {
      List<String> current = new ArrayList<>();
      for (String line : Files.readAllLines(runs)) {
        if (line.equals("--")) {
          started.add(current);
          current = new ArrayList<>();
        } else {
          current.add(line);
        }
      }
      Files.delete(runs);
    }
    return new Launch(process.exitValue(), stderr, started);
  }

  /** How bin/cortex ended, and each start of the stand-in java, in order. */
  private record Launch(int exitCode, String stderr, List<List<String>> runs) {
    /** The JVM options of the {@code index}th start: what comes before {@code -jar}. */
    List<String> jvmOptions(int index) {
      List<String> run = runs.get(index);
      return run.subList(0, run.indexOf("-jar"));
    }

    /** The arguments after the jar, which must be a snapshot in target/run. */
    List<String> arguments(int index) {
      List<String> run = runs.get(index);
      int jar = run.indexOf("-jar") + 1;
      assertThat(run.get(jar)).matches(".*/app/cli/target/run/cortex-[0-9]+-[0-9]+\\.jar");
      return run.subList(jar + 1, run.size());
    }
  }
}
