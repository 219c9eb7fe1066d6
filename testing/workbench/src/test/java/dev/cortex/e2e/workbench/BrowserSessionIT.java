package dev.cortex.e2e.workbench;

import static dev.cortex.e2e.workbench.Workbench.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.SessionApi;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.WindowType;
import org.openqa.selenium.support.ui.Select;

/** Sessions in the page: starting one, a streamed answer, stopping, a second tab, paging back. */
class BrowserSessionIT extends OnWorkbench {
  @Test
  void newSessionForm_startsAWebSession_andTheComposersMessageGetsTheStreamedAnswerInOneBubble()
      throws Exception {
    browser.get(workbench.url() + "/#/sessions");
    browser.find(".page-header button[aria-controls]").click();
    browser.find("input[name='name']").sendKeys("from-the-page");
    new Select(browser.find("select[name='backend']")).selectByValue("command");
    browser.find("input[name='program']").sendKeys(Workbench.programLine());
    browser.find("input[name='working_dir']").sendKeys(work.toString());
    browser.find("form.new-session button[type='submit']").click();
    browser.until(d -> d.getCurrentUrl().contains("#/s/"));
    String id = browser.driver.getCurrentUrl().replaceAll(".*#/s/", "");
    assertThat(workbench.api.show(id).path("channel").asString()).startsWith("web:");
    assertThat(workbench.api.show(id).path("started_by").asString()).isEqualTo("person");

    WebElement composer = browser.find(".composer textarea");
    composer.sendKeys(script(Map.of("say", List.of("Hello ", "from ", "the agent"))));
    browser.find(".composer button[type='submit']").click();
    browser.text(".entry-assistant .entry-text", "Hello from the agent");
    assertThat(browser.all(".entry-assistant"))
        .as("a run of streamed text is one bubble")
        .hasSize(1);
    browser.text(".entry-user .entry-text", "Hello ");
    workbench.api.awaitIdle(id);
    browser.text(".session-head .badge", "idle");
    browser.screenshots("session", ".entry-assistant");

    browser.get(workbench.url() + "/#/sessions");
    browser.text(".session-row[data-session='" + id + "'] .badge", "idle");
    browser.screenshots("sessions", ".session-row");
  }

  @Test
  void aRunningTurn_showsRunning_andStopFromTheListEndsIt() throws Exception {
    String id = workbench.session("long-turn");
    browser.get(workbench.url() + "/#/sessions");
    browser.find(".session-row[data-session='" + id + "']");
    workbench.api.send(id, script(Map.of("say", "working", "sleep_ms", 600_000)));
    String row = ".session-row[data-session='" + id + "']";
    browser.text(row + " .badge", "running");
    browser.find(row + " button").click();
    browser.text(row + " .badge", "idle");
    assertThat(workbench.api.show(id).path("state").asString()).isEqualTo("idle");
  }

  @Test
  void aSecondTabAndAReload_showTheSameTranscript_andLiveEntriesReachBoth() throws Exception {
    String id = workbench.session("two-tabs");
    workbench.api.follow(id, "first words");
    openSession(id);
    browser.text(".entry-assistant .entry-text", "first words");
    String first = browser.driver.getWindowHandle();
    browser.driver.switchTo().newWindow(WindowType.TAB);
    String second = browser.driver.getWindowHandle();
    openSession(id);
    browser.text(".entry-assistant .entry-text", "first words");
    workbench.api.follow(id, "second words");
    browser.text(".entry-assistant .entry-text", "second words");
    browser.driver.switchTo().window(first);
    browser.text(".entry-assistant .entry-text", "second words");
    browser.driver.navigate().refresh();
    browser.text(".entry-assistant .entry-text", "second words");
    assertThat(texts(".entry-user .entry-text")).containsExactly("first words", "second words");
    browser.driver.switchTo().window(second).close();
    browser.driver.switchTo().window(first);
  }

  @Test
  void aLongTranscript_showsTheNewestEntries_andLoadEarlierPagesBackwards() throws Exception {
    String id = workbench.session("long-transcript");
    workbench.api.follow(id, script(Map.of("flood", 150)));
    for (int i = 0; i < 3; i++) {
      workbench.api.follow(id, "message " + i);
    }
    int total = workbench.api.transcriptAll(id).size();
    openSession(id);
    browser.text(".entry-user .entry-text", "message 2");
    WebElement earlier = browser.find(".load-earlier");
    assertThat(earlier.isDisplayed()).isTrue();
    long shownFirst = seqOfFirst();
    assertThat(shownFirst).isGreaterThan(1);
    earlier.click();
    browser.until(d -> seqOfFirst() < shownFirst);
    while (browser.find(".load-earlier").isDisplayed()) {
      long before = seqOfFirst();
      browser.find(".load-earlier").click();
      browser.until(d -> seqOfFirst() < before || !browser.find(".load-earlier").isDisplayed());
    }
    assertThat(seqOfFirst()).isEqualTo(1);
    assertThat(SessionApi.userTexts(workbench.api.transcriptAll(id))).hasSize(4);
    assertThat(total).isGreaterThan(150);
  }

  private static long seqOfFirst() {
    return Long.parseLong(
        browser
            .driver
            .findElement(By.cssSelector(".transcript > li[data-seq]"))
            .getAttribute("data-seq"));
  }

  private static List<String> texts(String css) {
    return browser.all(css).stream().map(WebElement::getText).toList();
  }
}
