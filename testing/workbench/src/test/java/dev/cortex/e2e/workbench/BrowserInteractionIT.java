package dev.cortex.e2e.workbench;

import static dev.cortex.e2e.workbench.Workbench.call;
import static dev.cortex.e2e.workbench.Workbench.content;
import static dev.cortex.e2e.workbench.Workbench.ofKind;
import static dev.cortex.e2e.workbench.Workbench.script;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** Questions and plans of an agent, answered in the page. */
class BrowserInteractionIT extends OnWorkbench {
  private static final Map<String, Object> DATABASE =
      Map.of(
          "question",
          "Which database should the service use?",
          "header",
          "Database",
          "options",
          List.of(
              Map.of("label", "sqlite", "description", "one file, no server"),
              Map.of("label", "postgres")));

  @Test
  void aBlockingQuestion_answeredInThePage_isTheCallsAnswer_andAReloadShowsItAnswered()
      throws Exception {
    String id = workbench.session("asks-blocking");
    openSession(id);
    workbench.api.send(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "cortex_ask_user",
                        Map.of(
                            "questions",
                            List.of(DATABASE, Map.of("question", "Anything else?"))))))));
    String card = ".interaction.state-open";
    browser.text(card, "Which database should the service use?");
    browser.text(".session-head .badge", "waiting for you");
    browser.screenshots("question", card);
    browser.find(card + " .option:nth-of-type(2) label").click();
    browser.find(card + " fieldset:nth-of-type(2) textarea").sendKeys("keep it small");
    browser.find(card + " button[type='submit']").click();

    browser.find(".interaction.state-answered");
    JsonNode result =
        workbench.api.awaitEntry(
            id, e -> e.path("kind").asString().equals("tool_result"), "the question's answer");
    JsonNode answers = content(result).path("answers");
    assertThat(answers.get(0).path("selected").get(0).asString()).isEqualTo("postgres");
    assertThat(answers.get(1).path("text").asString()).isEqualTo("keep it small");
    assertThat(content(result).path("via").asString()).isEqualTo("workbench");
    workbench.api.awaitIdle(id);

    browser.driver.navigate().refresh();
    browser.text(".interaction.state-answered", "postgres");
    browser.text(".interaction.state-answered", "keep it small");
    assertThat(browser.all(".interaction.state-open")).isEmpty();
  }

  @Test
  void aNonBlockingMultipleChoice_answeredInThePage_comesBackAsTheNextUserMessage()
      throws Exception {
    String id = workbench.session("asks-later");
    Map<String, Object> checks =
        Map.of(
            "question",
            "Which checks should run?",
            "multiSelect",
            true,
            "options",
            List.of(Map.of("label", "lint"), Map.of("label", "tests"), Map.of("label", "bench")));
    workbench.api.follow(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "cortex_ask_user",
                        Map.of("questions", List.of(checks), "blocking", false))),
                "say",
                "kept working")));
    openSession(id);
    String card = ".interaction.state-open";
    browser.text(card, "the agent keeps working");
    assertThat(browser.find(".session-head .badge").getText()).isEqualTo("idle");
    browser.find(card + " .option:nth-of-type(1) label").click();
    browser.find(card + " .option:nth-of-type(2) label").click();
    assertThat(browser.all(card + " input[type='checkbox']:checked")).hasSize(2);
    browser.find(card + " button[type='submit']").click();

    JsonNode message =
        workbench.api.awaitEntry(
            id,
            e ->
                e.path("kind").asString().equals("user")
                    && e.path("body").path("text").asString().contains("Which checks should run?"),
            "the answer as a user message");
    assertThat(message.path("body").path("text").asString()).contains("lint", "tests");
    browser.text(".entry-user .entry-text", "Which checks should run?");
    browser.text(".interaction.state-answered", "lint · tests");
  }

  @Test
  void aPlan_approvedInThePage_endsPlanning() throws Exception {
    Files.createDirectories(work.resolve("plan"));
    Files.writeString(work.resolve("plan/PLAN.md"), "# Plan\n1. add the index\n2. test it\n");
    String id = workbench.session("plans-approved");
    openSession(id);
    workbench.api.send(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call("cortex_plan_enter", Map.of("reasoning", "a schema change")),
                    call(
                        "cortex_plan_exit",
                        Map.of("plan_file_path", "plan/PLAN.md", "summary", "an index"))))));
    String card = ".interaction-plan.state-open";
    browser.text(card + " .plan-text", "1. add the index");
    browser.screenshots("plan", card);
    browser.text(card + " button", "Approve plan").click();
    JsonNode decided = awaitToolResult(id, 1);
    assertThat(content(decided).path("approved").asBoolean()).isTrue();
    workbench.api.awaitIdle(id);
    assertThat(workbench.api.show(id).path("planning").asBoolean()).isFalse();
    browser.text(".interaction-plan.state-answered", "Approved");
  }

  @Test
  void aPlan_rejectedInThePage_needsFeedback_andTheAgentGetsIt() throws Exception {
    Files.createDirectories(work.resolve("plan"));
    Files.writeString(work.resolve("plan/REJECT.md"), "# Plan\ndrop the table\n");
    String id = workbench.session("plans-rejected");
    openSession(id);
    workbench.api.send(
        id,
        script(
            Map.of(
                "calls",
                List.of(call("cortex_plan_exit", Map.of("plan_file_path", "plan/REJECT.md"))))));
    String card = ".interaction-plan.state-open";
    browser.text(card + " .plan-text", "drop the table");
    browser.text(card + " button", "Reject with feedback").click();
    browser.text(card + " .error-line", "Say what to change");
    assertThat(workbench.api.show(id).path("waiting_for").asString()).isEqualTo("plan");
    browser.find(card + " textarea").sendKeys("keep the table");
    browser.text(card + " button", "Reject with feedback").click();
    JsonNode decided = content(awaitToolResult(id, 0));
    assertThat(decided.path("approved").asBoolean()).isFalse();
    assertThat(decided.path("feedback").asString()).isEqualTo("keep the table");
    browser.text(".interaction-plan.state-answered", "keep the table");
  }

  private static JsonNode awaitToolResult(String id, int index) {
    workbench.api.awaitEntry(
        id,
        e -> {
          try {
            return e.path("kind").asString().equals("tool_result")
                && ofKind(workbench.api.transcriptAll(id), "tool_result").size() > index;
          } catch (Exception ex) {
            return false;
          }
        },
        "tool result " + index);
    try {
      return ofKind(workbench.api.transcriptAll(id), "tool_result").get(index);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
