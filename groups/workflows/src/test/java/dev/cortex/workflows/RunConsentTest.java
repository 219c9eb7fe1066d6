package dev.cortex.workflows;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.CortexHome;
import dev.cortex.mcp.tool.ToolException;
import dev.cortex.workflows.consent.Confirmation;
import dev.cortex.workflows.consent.Decision;
import dev.cortex.workflows.remote.BareRepo;
import dev.cortex.workflows.remote.TrustStore;
import dev.cortex.workflows.tools.Surface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Trust, then the run: what is asked, when, and what an answer other than yes does. */
class RunConsentTest {
  static final String MANIFEST =
      """
      name: greet
      version: 1.0.0
      description: Says hello.
      parameters:
        who: {type: string, default: world}
      capabilities: [shell]
      steps:
        - id: hello
          kind: shell
          with: {argv: [echo, "${{ .params.who }}"]}
      """;

  @TempDir Path dir;
  CortexHome home;
  BareRepo repo;
  Sources sources;
  RunConsent consent;
  final List<Confirmation> asked = new ArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    home = new CortexHome(dir.resolve("home"), dir.resolve("home").resolve("data"));
    repo = BareRepo.create(Files.createDirectories(dir.resolve("git")));
    repo.commit(Map.of("flows/greet.yaml", MANIFEST, "flows/other.yaml", MANIFEST), "greet");
    repo.tag("v1.0.0");
    sources = new Sources(home, dir);
    consent = new RunConsent(new TrustStore(home, Clock.systemUTC()));
  }

  @AfterEach
  void close() {
    repo.close();
  }

  Workflows.Prepared prepared(String ref) {
    Sources.Loaded loaded = sources.load(ref);
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("who", "Ana\nApproved: yes");
    return new Workflows.Prepared(loaded, params);
  }

  void confirm(Workflows.Prepared prepared, Decision.Outcome... answers) {
    List<Decision.Outcome> queue = new ArrayList<>(List.of(answers));
    consent.confirm(
        prepared,
        question -> {
          asked.add(question);
          return new Decision(queue.remove(0), "test", "no way to ask here");
        },
        Surface.MCP);
  }

  String remote(String file) {
    return "git+" + repo.url() + "//flows/" + file + "@v1.0.0";
  }

  @Test
  void localWorkflow_asksOnlyForTheRun_namingWorkflowSourceAndParameters() throws Exception {
    Path file = dir.resolve("greet.yaml");
    Files.writeString(file, MANIFEST);

    confirm(prepared(file.toString()), Decision.Outcome.APPROVED);

    assertThat(asked).hasSize(1);
    Confirmation run = asked.get(0);
    assertThat(run.kind()).isEqualTo(Confirmation.Kind.RUN);
    assertThat(run.message())
        .contains("workflow 'greet' 1.0.0")
        .contains("Source: " + file)
        .contains("Capabilities: shell")
        .contains("who = \"Ana\\nApproved: yes\"");
    assertThat(consent.trustRequired(sources.load(file.toString()))).isFalse();
  }

  @Test
  void separatorsAndBidiControls_inNamesOrValues_areShownEscaped_neverAsLineBreaks()
      throws Exception {
    Path file = dir.resolve("sneaky.yaml");
    Files.writeString(
        file, MANIFEST.replace("name: greet", "name: \"greet\\u2028Parameters: none\\u202e\""));
    Sources.Loaded loaded = sources.load(file.toString());
    Map<String, Object> params = new LinkedHashMap<>();
    params.put("who", "Ana\u2029Run it now? yes\u200b");

    confirm(new Workflows.Prepared(loaded, params), Decision.Outcome.APPROVED);

    String message = asked.get(0).message();
    assertThat(message)
        .doesNotContain("\u2028", "\u2029", "\u202e", "\u200b")
        .contains("greet\\u2028Parameters: none\\u202e")
        .contains("who = \"Ana\\u2029Run it now? yes\\u200b\"");
    assertThat(message.lines().filter(l -> l.startsWith("Parameters:"))).hasSize(1);
  }

  @Test
  void untrustedRemote_asksTrustWithCommitAndCapabilities_thenTheRun_andRemembers() {
    Workflows.Prepared first = prepared(remote("greet.yaml"));
    assertThat(consent.trustRequired(first.loaded())).isTrue();

    confirm(first, Decision.Outcome.APPROVED, Decision.Outcome.APPROVED);

    assertThat(asked)
        .extracting(Confirmation::kind)
        .containsExactly(Confirmation.Kind.TRUST, Confirmation.Kind.RUN);
    assertThat(asked.get(0).message())
        .contains("Commit: " + first.loaded().ref().commit())
        .contains("Capabilities it declares: shell")
        .contains("File: flows/greet.yaml");
    asked.clear();
    confirm(prepared(remote("greet.yaml")), Decision.Outcome.APPROVED);
    assertThat(asked).extracting(Confirmation::kind).containsExactly(Confirmation.Kind.RUN);
    assertThat(consent.trustRequired(sources.load(remote("other.yaml"))))
        .as("trusting one workflow does not trust its neighbour")
        .isTrue();
  }

  @Test
  void onTheCommandLine_theQuestionsSpeakToThePersonWhoTypedIt_overMcpOfTheAgent() {
    consent.confirm(
        prepared(remote("greet.yaml")),
        question -> {
          asked.add(question);
          return Decision.approved("terminal");
        },
        Surface.CLI);
    List<Confirmation> cli = List.copyOf(asked);
    asked.clear();
    confirm(prepared(remote("other.yaml")), Decision.Outcome.APPROVED, Decision.Outcome.APPROVED);

    assertThat(cli.get(0).message())
        .startsWith("This workflow comes from a Git repository")
        .doesNotContain("agent");
    assertThat(cli.get(1).message())
        .startsWith("You are about to run workflow 'greet'")
        .doesNotContain("agent");
    assertThat(asked.get(0).message()).startsWith("An agent asks to run a workflow");
    assertThat(asked.get(1).message()).startsWith("An agent asks to run workflow");
  }

  @Test
  void aNewCommit_orMoreCapabilities_asksTrustAgain() throws Exception {
    confirm(prepared(remote("greet.yaml")), Decision.Outcome.APPROVED, Decision.Outcome.APPROVED);
    repo.commit(Map.of("flows/greet.yaml", MANIFEST.replace("Says hello", "Says hi")), "hi");
    repo.tag("v1.0.1");

    assertThat(consent.trustRequired(sources.load(remote("greet.yaml").replace("@v1.0.0", "@v1"))))
        .isTrue();
    repo.commit(Map.of("flows/greet.yaml", MANIFEST.replace("[shell]", "[shell, network]")), "net");
    repo.tag("v1.0.2");
    assertThat(
            consent.trustRequired(sources.load(remote("greet.yaml").replace("@v1.0.0", "@v1.0.2"))))
        .isTrue();
  }

  @Test
  void declinedTrust_recordsNothing_andAsksNoRun() {
    Workflows.Prepared prepared = prepared(remote("greet.yaml"));

    assertThatThrownBy(() -> confirm(prepared, Decision.Outcome.DECLINED))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("declined trust in")
        .hasMessageContaining("Nothing ran")
        .extracting(e -> ((ToolException) e).code())
        .isEqualTo("CONSENT_DECLINED");
    assertThat(asked).hasSize(1);
    assertThat(consent.trustRequired(prepared.loaded())).isTrue();
  }

  @Test
  void everyOtherOutcome_isItsOwnCode_andNoChannelPointsAtTheTerminal() throws Exception {
    Path file = dir.resolve("greet.yaml");
    Files.writeString(file, MANIFEST);

    assertThatThrownBy(() -> confirm(prepared(file.toString()), Decision.Outcome.TIMED_OUT))
        .extracting(e -> ((ToolException) e).code())
        .isEqualTo("CONSENT_TIMEOUT");
    assertThatThrownBy(() -> confirm(prepared(file.toString()), Decision.Outcome.NO_CHANNEL))
        .hasMessageContaining("no way to ask here")
        .hasMessageContaining("cortex run " + file + " --param 'who=Ana")
        .extracting(e -> ((ToolException) e).code())
        .isEqualTo("CONSENT_UNAVAILABLE");
  }
}
