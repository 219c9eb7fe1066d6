package dev.cortex.e2e.workbench;

import static dev.cortex.e2e.workbench.Workbench.call;
import static dev.cortex.e2e.workbench.Workbench.script;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * A daemon restart while the page shows an open question: the cookie session and the question
 * outlive the server; the page reconnects its events and the person answers on the new server.
 */
class BrowserRestartIT extends OnWorkbench {
  @Test
  void aQuestionOpenWhileTheServerRestarts_isStillOpenInThePage_andAnsweredOnTheNewServer()
      throws Exception {
    String id = workbench.session("restart-question");
    openSession(id);
    workbench.api.send(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "cortex_ask_user",
                        dev.cortex.testing.ScriptedAgent.askOne("Deploy now?", "yes", "no"))))));
    String card = ".interaction.state-open";
    String request = browser.text(card, "Deploy now?").getAttribute("data-interaction");
    browser.text("#live-status", "live");

    workbench.restart();

    browser.text("#live-status", "live");
    browser.driver.navigate().refresh();
    browser.find("body.signed-in");
    browser.text(card, "Deploy now?");
    browser.find(card + " .option:nth-of-type(1) label").click();
    browser.find(card + " button[type='submit']").click();
    browser.find(".interaction.state-answered");
    JsonNode shown = workbench.webhook("/api/interactions/show", Map.of("id", request));
    assertThat(shown.path("state").asString()).isEqualTo("answered");
    assertThat(shown.path("answer").path("via").asString()).isEqualTo("workbench");
    assertThat(shown.path("answer").path("answers").get(0).path("selected").get(0).asString())
        .isEqualTo("yes");
  }
}
