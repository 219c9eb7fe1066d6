package dev.cortex.e2e.workbench;

import static dev.cortex.e2e.workbench.Workbench.script;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Dimension;

/**
 * The overview pages: costs with their charts and table, executions, devices, waitpoints; live
 * updates of the sessions list; the theme toggle; a phone-wide window.
 */
class BrowserPagesIT extends OnWorkbench {
  @Test
  void costs_drawTheChartsAndTheTable_fromTheSameNumbersAsTheApi() throws Exception {
    String id = workbench.session("spends");
    Map<String, Object> cost = new LinkedHashMap<>();
    cost.put("model", "scripted");
    cost.put("input_tokens", 10);
    cost.put("output_tokens", 5);
    cost.put("usd", 1.25);
    cost.put("mode", "api");
    workbench.api.follow(id, script(Map.of("say", "spent", "cost", cost)));
    browser.get(workbench.url() + "/#/costs");
    browser.find(".chart .uplot");
    browser.text(".stat-value", "$1.25");
    browser.text(".stat-note", "no cap");
    browser.text("table.data", "$1.25");
    assertThat(browser.all(".chart canvas")).hasSizeGreaterThanOrEqualTo(2);
    browser.screenshots("costs", ".chart .uplot");
  }

  @Test
  void executions_listTheTurns_withTheirStatus() throws Exception {
    String id = workbench.session("turns");
    workbench.api.follow(id, "one turn");
    workbench.api.follow(id, script(Map.of("fail", "it broke")));
    browser.get(workbench.url() + "/#/executions");
    browser.text("table.data", "completed");
    browser.text("table.data", "it broke");
    browser.screenshots("executions", "table.data");
    browser.get(workbench.url() + "/#/sessions");
    browser.text(".session-row[data-session='" + id + "'] .badge", "failed");
  }

  @Test
  void devicesAndWaitpoints_withNothingYet_showCalmEmptyStates() {
    browser.get(workbench.url() + "/#/devices");
    browser.text(".empty", "No devices enrolled.");
    browser.screenshots("devices", ".empty");
    browser.get(workbench.url() + "/#/waitpoints");
    browser.text(".empty", "No waitpoints.");
    browser.screenshots("waitpoints", ".empty");
  }

  @Test
  void aSessionCreatedElsewhere_appearsInTheOpenList_withoutAReload() throws Exception {
    browser.get(workbench.url() + "/#/sessions");
    browser.find("[data-page='sessions'] .page-header");
    browser.text("#live-status", "live");
    Object marker = browser.script("window.__notReloaded = true; return true;");
    assertThat(marker).isEqualTo(true);
    String id = workbench.session("made-by-the-api");
    browser.text(".session-row[data-session='" + id + "']", "made-by-the-api");
    assertThat(browser.script("return window.__notReloaded === true")).isEqualTo(true);
  }

  @Test
  void theThemeToggle_cyclesSystemLightDark_andIsKeptAcrossAReload() {
    browser.get(workbench.url() + "/#/sessions");
    browser.theme("system");
    browser.find("#theme-toggle").click();
    assertThat(browser.script("return document.documentElement.dataset.theme")).isEqualTo("light");
    browser.find("#theme-toggle").click();
    assertThat(browser.script("return document.documentElement.dataset.theme")).isEqualTo("dark");
    browser.driver.navigate().refresh();
    browser.find("body.signed-in");
    assertThat(browser.script("return document.documentElement.dataset.theme")).isEqualTo("dark");
    browser.theme("system");
  }

  @Test
  void atPhoneWidth_thePageDoesNotScrollSideways_andEveryControlHasALabel() throws Exception {
    workbench.session("phone");
    browser.driver.manage().window().setSize(new Dimension(390, 844));
    try {
      browser.get(workbench.url() + "/#/sessions");
      browser.find(".session-row");
      browser.find(".page-header button[aria-controls]").click();
      assertThat(browser.script("return document.documentElement.scrollWidth <= window.innerWidth"))
          .isEqualTo(true);
      Object unlabelled =
          browser.script(
              "return [...document.querySelectorAll('input, select, textarea, button')]"
                  + ".filter(e => !e.closest('[hidden]'))"
                  + ".filter(e => !(e.labels && e.labels.length) && !e.getAttribute('aria-label')"
                  + " && !e.textContent.trim()).map(e => e.outerHTML)");
      assertThat((java.util.List<?>) unlabelled).isEmpty();
    } finally {
      browser.driver.manage().window().setSize(new Dimension(1280, 900));
    }
  }
}
