package dev.cortex.e2e.release;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.Checkout;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.RawStdio;
import dev.cortex.testing.TestJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The release artefacts, built once by {@code tools/release/build} from the jar under test, each
 * unpacked into a fresh directory as a user or a host would, then asked for {@code initialize} and
 * a {@code tools/call}: the runtime image and the bundle with no Java on the PATH at all.
 */
class ReleaseArtifactsIT {
  private static final String REPOSITORY = "example-owner/cortex";

  @TempDir static Path dir;
  private static Path out;
  private static String version;

  @BeforeAll
  static void buildRelease() throws Exception {
    version = CortexProcess.run(CortexProcess.env(dir.resolve("v")), "--version").stdout().strip();
    version = version.substring("cortex ".length());
    out = dir.resolve("release");
    Path script = root().resolve("tools/release/build");
    ProcessBuilder builder =
        new ProcessBuilder(
            script.toString(),
            "--jar",
            CortexProcess.jar().toString(),
            "--repository",
            REPOSITORY,
            "--out",
            out.toString());
    builder.redirectErrorStream(true);
    Process build = builder.start();
    String log = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(build.waitFor(10, TimeUnit.MINUTES)).as("tools/release/build finished").isTrue();
    if (build.exitValue() != 0 && log.contains("no JDK with jlink") && !inCi()) {
      System.err.println(
          "\n*** SKIPPED: the release artefacts were not smoke-tested: no JDK with jlink here ***\n"
              + log);
      Assumptions.abort("no JDK with jlink on this machine: " + log);
    }
    assertThat(build.exitValue()).as("tools/release/build: %s", log).isZero();
  }

  @Test
  void jar_copiedAloneIntoAnEmptyDirectory_answersInitializeAndToolsCall() throws Exception {
    Path fresh = Files.createDirectories(dir.resolve("jar-alone"));
    Path jar = Files.copy(out.resolve("cortex.jar"), fresh.resolve("cortex.jar"));

    assertServes(List.of(CortexProcess.java(), "-jar", jar.toString(), "mcp"), noJavaEnv("jar"));
  }

  @Test
  void runtimeImage_unpackedWithNoJavaOnThePath_runsOnItsOwnRuntime() throws Exception {
    Path image = unpackImage("image");

    String executable =
        assertServes(List.of(image.resolve("bin/cortex").toString(), "mcp"), noJavaEnv("image"));

    assertThat(executable).isEqualTo(image.resolve("bin/java").toString());
  }

  @Test
  void runtimeImage_shipsShellCompletionAndManualPages() throws Exception {
    Path image = unpackImage("image-share");

    assertThat(image.resolve("share/bash-completion/completions/cortex"))
        .content()
        .contains("_picocli_cortex");
    assertThat(image.resolve("share/zsh/site-functions/_cortex"))
        .content()
        .startsWith("#compdef cortex");
    assertThat(image.resolve("share/fish/vendor_completions.d/cortex.fish"))
        .content()
        .contains("complete -c cortex");
    assertThat(image.resolve("share/man/man1/cortex.1")).content().startsWith(".TH \"CORTEX\" 1");
    assertThat(image.resolve("share/man/man1/cortex-server-stop.1")).exists();
  }

  @Test
  void runtimeImage_onJdk25OrNewer_carriesAStartupCacheAndItsLaunchers() throws Exception {
    Path image = unpackImage("image-files");

    assertThat(image.resolve("LICENSE")).content().contains("MIT License");
    // The bundled libraries' notices, from their POMs at build time, in the image and the jar.
    assertThat(image.resolve("THIRD-PARTY.txt"))
        .content()
        .contains("List of third-party dependencies grouped by their license type.")
        .contains("org.eclipse.jetty:jetty-server")
        .contains("tools.jackson.core:jackson-databind")
        .doesNotContain("dev.cortex:");
    try (var jar = new java.util.zip.ZipFile(image.resolve("lib/cortex/cortex.jar").toFile())) {
      assertThat(jar.getEntry("THIRD-PARTY.txt")).isNotNull();
    }
    assertThat(image.resolve("bin/cortex.cmd"))
        .content()
        .contains("\\bin\\java.exe")
        .contains("\\lib\\cortex\\cortex.jar")
        .contains("\r\n");
    if (runtimeMajor(image) >= 25) {
      assertThat(image.resolve("lib/cortex/cortex.aot")).isNotEmptyFile();
    }
    CortexProcess.Finished shown = runLauncher(image.resolve("bin/cortex"), noJavaEnv("version"));
    assertThat(shown.stdout().strip()).isEqualTo("cortex " + version);
  }

  /** Regression: on Java 24+ every Temporal verb printed sun.misc.Unsafe warnings. */
  @Test
  void runtimeImage_aTemporalVerb_printsNoJvmWarning() throws Exception {
    Path image = unpackImage("image-quiet");
    Map<String, String> env = noJavaEnv("quiet");
    env.put("CORTEX_WORKFLOWS_ENGINE", "temporal");
    env.put("CORTEX_TEMPORAL_ADDRESS", "127.0.0.1:1");

    ProcessBuilder builder = new ProcessBuilder(image.resolve("bin/cortex").toString(), "status");
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    process.getInputStream().readAllBytes();
    String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor();

    assertThat(stderr).as("the Temporal runtime was loaded").doesNotContain("WARNING");
    List<String> options = Files.readAllLines(image.resolve("lib/cortex/jvm-options"));
    if (runtimeMajor(image) >= 23) {
      assertThat(options).contains("from-java-23=--sun-misc-unsafe-memory-access=allow");
    } else {
      assertThat(options).noneMatch(line -> line.startsWith("from-java-23="));
    }
  }

  @Test
  void runtimeImage_launchers_readTheImagesCopyOfTheOptionsFile() throws Exception {
    Path image = unpackImage("image-options");
    Path options = image.resolve("lib/cortex/jvm-options");
    List<String> checkout = Files.readAllLines(root().resolve("bin/jvm-options"));
    List<String> copy = Files.readAllLines(options);
    String shortLived = line(checkout, "short-lived=");
    assertThat(line(copy, "short-lived=")).isEqualTo(shortLived);
    assertThat(image.resolve("bin/cortex.cmd"))
        .content()
        .contains("\\lib\\cortex\\jvm-options")
        .doesNotContain("-XX:+UseSerialGC");
    assertThat(image.resolve("bin/cortex")).content().doesNotContain("-XX:+UseSerialGC");
    String marker = "-Dcortex.test.options=image";
    Files.writeString(
        options,
        Files.readString(options).replace("\nshort-lived=-", "\nshort-lived=" + marker + " -"));

    List<String> arguments = servedArguments(image.resolve("bin/cortex"), noJavaEnv("options"));

    List<String> expected = new ArrayList<>(List.of(marker));
    expected.addAll(List.of(shortLived.substring("short-lived=".length()).split(" +")));
    if (runtimeMajor(image) >= 23) {
      expected.add("--sun-misc-unsafe-memory-access=allow");
    }
    if (Files.exists(image.resolve("lib/cortex/cortex.aot"))) {
      expected.add("-XX:AOTCache=" + image.resolve("lib/cortex/cortex.aot"));
    }
    expected.addAll(List.of("-jar", image.resolve("lib/cortex/cortex.jar").toString(), "mcp"));
    assertThat(arguments).containsExactlyElementsOf(expected);
  }

  @Test
  void runtimeImage_withoutItsOptionsFile_saysSoAndExits2() throws Exception {
    Path image = unpackImage("image-no-options");
    Files.delete(image.resolve("lib/cortex/jvm-options"));
    ProcessBuilder builder =
        new ProcessBuilder(image.resolve("bin/cortex").toString(), "--version");
    builder.environment().clear();
    builder.environment().putAll(noJavaEnv("no-options"));
    Process process = builder.start();
    process.getOutputStream().close();
    String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

    assertThat(process.waitFor()).isEqualTo(2);
    assertThat(stderr).contains("lib/cortex/jvm-options is missing");
  }

  /**
   * Regression: a link to bin/cortex in a PATH folder failed without readlink on the PATH ("exec:
   * …/bin/java: not found"). The PATH here has ls and nothing else.
   */
  @Test
  void runtimeImage_startedThroughSymbolicLinksWithoutReadlink_findsItsRuntime() throws Exception {
    Path image = unpackImage("image-link");
    Path links = Files.createDirectories(dir.resolve("link-bin"));
    Path absolute = Files.createSymbolicLink(links.resolve("cortex"), image.resolve("bin/cortex"));
    // A relative link to that link, through a linked folder.
    Path linkedFolder = Files.createSymbolicLink(dir.resolve("link-folder"), links);
    Path chained = Files.createSymbolicLink(links.resolve("cx"), Path.of("cortex"));
    Path tools = Files.createDirectories(dir.resolve("link-tools"));
    Files.copy(which("ls"), tools.resolve("ls"), StandardCopyOption.COPY_ATTRIBUTES);
    Map<String, String> env = noJavaEnv("link");
    env.put("PATH", tools + ":" + links);

    assertThat(tools.resolve("readlink")).doesNotExist();
    assertThat(tools.resolve("realpath")).doesNotExist();
    assertThat(runLauncher(absolute, env).stdout().strip()).isEqualTo("cortex " + version);
    assertThat(runLauncher(linkedFolder.resolve(chained.getFileName()), env).stdout().strip())
        .isEqualTo("cortex " + version);
    // Found on the PATH by name, as a shell starts it.
    ProcessBuilder byName = new ProcessBuilder("/bin/sh", "-c", "cx --version");
    byName.environment().clear();
    byName.environment().putAll(env);
    Process process = byName.redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as(output).isZero();
    assertThat(output.strip()).isEqualTo("cortex " + version);
  }

  @Test
  void bundle_unpackedAsAHostDoes_startsTheManifestsCommand() throws Exception {
    Path unpacked = Files.createDirectories(dir.resolve("bundle"));
    Path bundle = artefact(".mcpb");
    exec(List.of("unzip", "-q", bundle.toString(), "-d", unpacked.toString()));
    JsonNode manifest = TestJson.JSON.readTree(unpacked.resolve("manifest.json").toFile());

    assertThat(manifest.path("manifest_version").asString()).isEqualTo("0.3");
    assertThat(manifest.path("name").asString()).isEqualTo("cortex");
    assertThat(manifest.path("version").asString()).isEqualTo(version);
    assertThat(manifest.path("author").path("name").asString()).isNotBlank();
    JsonNode server = manifest.path("server");
    assertThat(server.path("type").asString()).isEqualTo("binary");
    assertThat(Files.isExecutable(unpacked.resolve(server.path("entry_point").asString())))
        .isTrue();
    List<String> command = new ArrayList<>();
    command.add(server.path("mcp_config").path("command").asString());
    server.path("mcp_config").path("args").forEach(arg -> command.add(arg.asString()));
    command.replaceAll(part -> part.replace("${__dirname}", unpacked.toString()));
    // The host puts the person's settings (here their defaults) into the server's environment.
    Map<String, String> env = noJavaEnv("bundle");
    server
        .path("mcp_config")
        .path("env")
        .properties()
        .forEach(
            variable ->
                env.put(variable.getKey(), userConfigDefault(manifest, variable.getValue())));
    assertServes(command, env);
  }

  /**
   * Regression: the bundle held entries for its folders, on which the official {@code mcpb unpack}
   * fails (EISDIR). It also names its tools, an icon, and settings for the groups and the home.
   */
  @Test
  void bundle_hasNoFolderEntriesAndDescribesItsToolsIconAndSettings() throws Exception {
    Path bundle = artefact(".mcpb");
    List<String> entries = new ArrayList<>();
    byte[] icon = null;
    JsonNode manifest = null;
    try (var zip = new java.util.zip.ZipFile(bundle.toFile())) {
      for (var entry : java.util.Collections.list(zip.entries())) {
        entries.add(entry.getName());
        if (entry.getName().equals("icon.png")) {
          icon = zip.getInputStream(entry).readAllBytes();
        } else if (entry.getName().equals("manifest.json")) {
          manifest = TestJson.JSON.readTree(zip.getInputStream(entry));
        }
      }
    }

    assertThat(entries)
        .noneMatch(name -> name.endsWith("/"))
        .contains("server/bin/cortex", "LICENSE", "THIRD-PARTY.txt");
    assertThat(manifest).isNotNull();
    assertThat(manifest.path("icon").asString()).isEqualTo("icon.png");
    assertThat(icon).isNotNull();
    assertThat(java.util.Arrays.copyOf(icon, 4)).containsExactly(0x89, 'P', 'N', 'G');
    JsonNode listed =
        TestJson.JSON.readTree(
            CortexProcess.run(CortexProcess.env(dir.resolve("tools")), "tools", "list", "--json")
                .stdout());
    List<String> expected = new ArrayList<>();
    listed.path("tools").forEach(tool -> expected.add(tool.path("name").asString()));
    List<String> named = new ArrayList<>();
    manifest.path("tools").forEach(tool -> named.add(tool.path("name").asString()));
    assertThat(named).isNotEmpty().containsExactlyElementsOf(expected);
    manifest
        .path("tools")
        .forEach(tool -> assertThat(tool.path("description").asString()).isNotBlank());
    JsonNode settings = manifest.path("user_config");
    assertThat(settings.path("groups").path("type").asString()).isEqualTo("string");
    assertThat(settings.path("groups").path("default").asString()).isEqualTo("evidence,workflows");
    assertThat(settings.path("cortex_home").path("type").asString()).isEqualTo("directory");
    JsonNode env = manifest.path("server").path("mcp_config").path("env");
    assertThat(env.path("CORTEX_MCP_BUNDLES").asString()).isEqualTo("${user_config.groups}");
    assertThat(env.path("CORTEX_HOME").asString()).isEqualTo("${user_config.cortex_home}");
  }

  /**
   * The default of the setting {@code value} names ({@code ${user_config.KEY}}), else the value.
   */
  private static String userConfigDefault(JsonNode manifest, JsonNode value) {
    String text = value.asString();
    if (text.startsWith("${user_config.") && text.endsWith("}")) {
      String key = text.substring("${user_config.".length(), text.length() - 1);
      return manifest.path("user_config").path(key).path("default").asString("");
    }
    return text;
  }

  @Test
  void serverJson_namesTheBundleByItsDownloadAddressAndHash() throws Exception {
    JsonNode entry = TestJson.JSON.readTree(out.resolve("server.json").toFile());
    String bundle = artefact(".mcpb").getFileName().toString();

    assertThat(entry.path("$schema").asString())
        .isEqualTo("https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
    assertThat(entry.path("name").asString())
        .isEqualTo("io.github.example-owner/cortex")
        .matches("^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$");
    assertThat(entry.path("description").asString()).hasSizeBetween(1, 100);
    assertThat(entry.path("version").asString()).isEqualTo(version);
    assertThat(entry.path("repository").path("url").asString())
        .isEqualTo("https://github.com/" + REPOSITORY);
    JsonNode pkg = entry.path("packages").get(0);
    assertThat(pkg.path("registryType").asString()).isEqualTo("mcpb");
    assertThat(pkg.path("identifier").asString())
        .isEqualTo(
            "https://github.com/" + REPOSITORY + "/releases/download/v" + version + "/" + bundle);
    assertThat(pkg.path("fileSha256").asString()).isEqualTo(sha256(out.resolve(bundle)));
    assertThat(pkg.path("transport").path("type").asString()).isEqualTo("stdio");
  }

  @Test
  void jbangCatalog_aliasRunsThisJarAsJbangLaunchesIt() throws Exception {
    JsonNode alias =
        TestJson.JSON
            .readTree(out.resolve("jbang-catalog.json").toFile())
            .path("aliases")
            .path("cortex");

    assertThat(alias.path("script-ref").asString())
        .isEqualTo(
            "https://github.com/" + REPOSITORY + "/releases/download/v" + version + "/cortex.jar");
    assertThat(alias.path("java").asString()).isEqualTo("17+");
    // JBang runs a jar's main class on its class path, with the alias's Java options.
    List<String> command = new ArrayList<>(List.of(CortexProcess.java()));
    alias.path("java-options").forEach(option -> command.add(option.asString()));
    command.addAll(
        List.of("-classpath", out.resolve("cortex.jar").toString(), "dev.cortex.cli.Main", "mcp"));
    assertServes(command, noJavaEnv("jbang"));
  }

  @Test
  void sha256Sums_listEveryArtefactWithItsHash() throws Exception {
    List<String> lines = Files.readAllLines(out.resolve("SHA256SUMS"));

    assertThat(lines).hasSize(5);
    for (String line : lines) {
      String[] parts = line.split("  ", 2);
      assertThat(sha256(out.resolve(parts[1]))).as(parts[1]).isEqualTo(parts[0]);
    }
  }

  /**
   * Starts {@code command}, checks initialize and a tools/call, and returns the executable that
   * served them.
   */
  private static String assertServes(List<String> command, Map<String, String> env)
      throws IOException {
    try (RawStdio mcp = RawStdio.spawn(command, env)) {
      mcp.initialize("{}");
      mcp.call(2, "cortex_health", "{}");
      JsonNode health = mcp.until("", 2);
      assertThat(health.path("result").path("isError").asBoolean(true))
          .as("health: %s; stderr: %s", health, mcp.stderr())
          .isFalse();
      assertThat(health.path("result").path("structuredContent").path("version").asString())
          .isEqualTo(version);
      return mcp.process.info().command().orElse("");
    }
  }

  /** The JVM arguments of the process {@code launcher mcp} runs, read while it serves. */
  private static List<String> servedArguments(Path launcher, Map<String, String> env)
      throws IOException {
    try (RawStdio mcp = RawStdio.spawn(List.of(launcher.toString(), "mcp"), env)) {
      mcp.initialize("{}");
      return List.of(mcp.process.info().arguments().orElseThrow());
    }
  }

  private static String line(List<String> lines, String prefix) {
    return lines.stream()
        .filter(line -> line.startsWith(prefix))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no line " + prefix));
  }

  /** An environment with nothing inherited: no PATH entry holds a java, no JAVA_HOME. */
  private static Map<String, String> noJavaEnv(String name) throws IOException {
    Path home = Files.createDirectories(dir.resolve("homes").resolve(name));
    Path empty = Files.createDirectories(dir.resolve("empty-path"));
    Map<String, String> env = new HashMap<>();
    env.put("PATH", empty.toString());
    env.put("HOME", home.toString());
    env.put("CORTEX_HOME", home.resolve("cortex").toString());
    env.put("TZ", "UTC");
    return env;
  }

  private static Path unpackImage(String name) throws Exception {
    Path target = Files.createDirectories(dir.resolve(name));
    Path archive = artefact(".tar.gz");
    exec(List.of("tar", "-xzf", archive.toString(), "-C", target.toString()));
    Path image = target.resolve("cortex-" + version);
    assertThat(image.resolve("bin/java")).isExecutable();
    return image;
  }

  /** The one artefact of this version whose name ends with {@code suffix}, for this platform. */
  private static Path artefact(String suffix) throws IOException {
    try (var files = Files.list(out)) {
      List<Path> found =
          files
              .filter(f -> f.getFileName().toString().startsWith("cortex-" + version + "-"))
              .filter(f -> f.getFileName().toString().endsWith(suffix))
              .toList();
      assertThat(found).as("artefacts ending %s in %s", suffix, out).hasSize(1);
      return found.get(0);
    }
  }

  private static CortexProcess.Finished runLauncher(Path launcher, Map<String, String> env)
      throws Exception {
    ProcessBuilder builder = new ProcessBuilder(launcher.toString(), "--version");
    builder.environment().clear();
    builder.environment().putAll(env);
    Process process = builder.start();
    process.getOutputStream().close();
    String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    String stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    int code = process.waitFor();
    assertThat(code).as("%s --version: %s", launcher, stderr).isZero();
    return new CortexProcess.Finished(code, stdout, stderr);
  }

  private static int runtimeMajor(Path image) throws IOException {
    for (String line : Files.readAllLines(image.resolve("release"))) {
      if (line.startsWith("JAVA_VERSION=\"")) {
        String value = line.substring("JAVA_VERSION=\"".length());
        return Integer.parseInt(value.split("[.\"]", 2)[0]);
      }
    }
    throw new AssertionError("no JAVA_VERSION in the image's release file");
  }

  private static void exec(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor()).as("%s: %s", command, output).isZero();
  }

  private static Path which(String tool) {
    for (String entry : System.getenv().getOrDefault("PATH", "").split(":")) {
      Path candidate = Path.of(entry, tool);
      if (Files.isExecutable(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError(tool + " is not on the PATH");
  }

  private static String sha256(Path file) throws IOException, NoSuchAlgorithmException {
    MessageDigest digest = MessageDigest.getInstance("SHA-256");
    try (var in = Files.newInputStream(file)) {
      byte[] buffer = new byte[1 << 16];
      for (int n = in.read(buffer); n > 0; n = in.read(buffer)) {
        digest.update(buffer, 0, n);
      }
    }
    return HexFormat.of().formatHex(digest.digest());
  }

  private static Path root() {
    return Checkout.root();
  }

  private static boolean inCi() {
    return "true".equalsIgnoreCase(System.getenv("CI"));
  }
}
