package dev.cortex.e2e.workbench;

import static dev.cortex.e2e.workbench.Workbench.call;
import static dev.cortex.e2e.workbench.Workbench.content;
import static dev.cortex.e2e.workbench.Workbench.ofKind;
import static dev.cortex.e2e.workbench.Workbench.script;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;

/** The web group's cards in the page: files, views in their sandbox, decisions and boards. */
class BrowserWebCardsIT extends OnWorkbench {
  /** A 1×1 PNG. */
  private static final byte[] PIXEL =
      Base64.getDecoder()
          .decode(
              "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==");

  /** A view whose own script tries to reach the page's cookie, storage, DOM and API. */
  private static final String PROBE =
      "<p id='out'>pending</p><script>\n"
          + "var r = {};\n"
          + "try { r.cookie = 'read:' + document.cookie; } catch (e) { r.cookie = 'blocked'; }\n"
          + "try { r.storage = 'read:' + window.localStorage.length; } catch (e) { r.storage = 'blocked'; }\n"
          + "try { r.parent = 'read:' + window.parent.document.title; } catch (e) { r.parent = 'blocked'; }\n"
          + "fetch('/api/ui/me').then(function (x) { return x.text(); })\n"
          + "  .then(function (t) { r.api = 'read:' + t; }, function () { r.api = 'blocked'; })\n"
          + "  .then(function () { document.getElementById('out').textContent = JSON.stringify(r); });\n"
          + "</script>";

  @Test
  void fileCards_previewTheImage_andDownloadTheFile() throws Exception {
    Files.write(work.resolve("pixel.png"), PIXEL);
    Files.writeString(work.resolve("notes.txt"), "the notes of the run");
    String id = workbench.session("files");
    workbench.api.follow(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "send_file",
                        Map.of(
                            "files",
                            List.of(
                                Map.of("file_path", "pixel.png"), Map.of("file_path", "notes.txt")),
                            "caption",
                            "Two files"))))));
    openSession(id);
    browser.text(".attachment-files", "Two files");
    WebElement image = browser.find(".attachment-files img");
    browser.until(
        d ->
            (Boolean)
                browser.script(
                    "return arguments[0].complete && arguments[0].naturalWidth === 1", image));
    browser.text(".file-card", "notes.txt");
    browser.screenshots("files", ".attachment-files img");
    WebElement link =
        browser
            .text(".file-card", "notes.txt")
            .findElement(org.openqa.selenium.By.cssSelector("a.file-download"));
    assertThat(link.getAttribute("download")).isEqualTo("notes.txt");
    // What the link hands the browser to save: fetched in the page, with the page's cookie.
    // (Headless
    // Chromium here does not write the saved file to the folder it is given, so the bytes are
    // checked as the page receives them.)
    Object answer =
        browser.script(
            "return fetch(arguments[0]).then(async r => r.status + ' '"
                + " + r.headers.get('content-disposition') + ' | ' + await r.text())",
            link.getAttribute("href"));
    assertThat(String.valueOf(answer))
        .as("the file's route")
        .startsWith("200 attachment")
        .endsWith(" | the notes of the run");
  }

  @Test
  void aView_runsInItsSandbox_andItsScriptReachesNeitherCookieNorStorageNorPageNorApi()
      throws Exception {
    String id = workbench.session("view-probe");
    browser.script("localStorage.setItem('probe', 'kept by the page')");
    workbench.api.follow(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call("send_view", Map.of("title", "Probe", "html", PROBE, "height", 200))))));
    openSession(id);
    WebElement frame = browser.find(".attachment-view iframe");
    assertThat(frame.getAttribute("sandbox")).isEqualTo("allow-scripts");
    browser.driver.switchTo().frame(frame);
    try {
      String out =
          browser.until(
              d -> {
                String text = d.findElement(org.openqa.selenium.By.id("out")).getText();
                return text.startsWith("{") ? text : null;
              });
      JsonNode probed = dev.cortex.testing.TestJson.JSON.readTree(out);
      assertThat(probed.path("cookie").asString()).isEqualTo("blocked");
      assertThat(probed.path("storage").asString()).isEqualTo("blocked");
      assertThat(probed.path("parent").asString()).isEqualTo("blocked");
      assertThat(probed.path("api").asString()).isEqualTo("blocked");
    } finally {
      browser.driver.switchTo().defaultContent();
    }
  }

  @Test
  void aViewsWidth_changedInThePage_isSavedOnTheServer_andKeptAfterAReload() throws Exception {
    String id = workbench.session("view-width");
    workbench.api.follow(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "send_view",
                        Map.of("title", "Chart", "html", "<h1>chart</h1>", "width", "narrow"))))));
    openSession(id);
    WebElement view = browser.find(".attachment-view");
    assertThat(view.getAttribute("data-width")).isEqualTo("narrow");
    browser.text(".attachment-view .segment label", "wide");
    for (WebElement label : browser.all(".attachment-view .segment label")) {
      if (label.getText().equals("wide")) {
        label.click();
      }
    }
    browser.text(".attachment-view .view-status", "saved");
    browser.screenshots("view-wide", ".attachment-view.width-wide");
    browser.driver.navigate().refresh();
    browser.find(".attachment-view.width-wide");
    assertThat(browser.find(".attachment-view input[value='wide']").isSelected()).isTrue();
  }

  @Test
  void decisions_approveExplainAndChange_keepTheirStatesAndLog_andExplainReachesTheAgent()
      throws Exception {
    String id = workbench.session("decisions");
    List<Map<String, Object>> decisions =
        List.of(
            decision("Use SQLite", "SQLite for the index"),
            decision("Nightly at 2am", "the build runs at 2am"),
            decision("No cache", "no cache for now"));
    workbench.api.follow(
        id,
        script(Map.of("calls", List.of(call("send_decision", Map.of("decisions", decisions))))));
    openSession(id);
    browser.text(".attachment-decisions", "3 decisions the agent made");
    act(0, "Approve", null);
    browser.find(".decision[data-index='0'][data-state='approved']");
    act(1, "Ask to explain", null);
    browser.find(".decision[data-index='1'][data-state='explain']");
    act(2, "Propose a change", null);
    browser.text(".decision[data-index='2'] .error-line", "Say what to change");
    act(2, "Propose a change", "cache the hot keys");
    browser.find(".decision[data-index='2'][data-state='change']");

    JsonNode explained =
        workbench.api.awaitEntry(
            id,
            e ->
                e.path("kind").asString().equals("user")
                    && e.path("body").path("text").asString().contains("About your decision")
                    && e.path("body").path("text").asString().contains("Nightly at 2am"),
            "the explain request as a user message");
    assertThat(explained.path("body").path("source").asString()).isEqualTo("workbench");
    workbench.api.awaitEntry(
        id,
        e ->
            e.path("kind").asString().equals("user")
                && e.path("body").path("text").asString().contains("cache the hot keys"),
        "the proposed change as a user message");
    browser.screenshots("decisions", ".decision[data-state='change']");

    browser.driver.navigate().refresh();
    browser.find(".decision[data-index='0'][data-state='approved']");
    browser.find(".decision[data-index='1'][data-state='explain']");
    WebElement changed = browser.find(".decision[data-index='2'][data-state='change']");
    browser.click(changed.findElement(org.openqa.selenium.By.tagName("summary")));
    browser.text(".decision[data-index='2'] .action-log", "cache the hot keys");
  }

  @Test
  void aBoardCard_opensTheBoardPage_withItsSessionsAndBoardMd() throws Exception {
    String id = workbench.session("board");
    workbench.api.follow(
        id, script(Map.of("calls", List.of(call("board_open", Map.of("title", "Nightly build"))))));
    JsonNode card = ofKind(workbench.api.transcriptAll(id), "attachment").get(0);
    String board = card.path("body").path("board").path("id").asString();
    openSession(id);
    browser.text(".attachment-board .board-link", "Nightly build").click();
    browser.until(d -> d.getCurrentUrl().contains("#/b/" + board));
    browser.text(".page-header h1", "Nightly build");
    browser.find(".board-content");
    browser.text(".board-sessions", "board");
    browser.screenshots("board", ".board-content");
    // The agent writes its board with its own file tools; the open page shows it after the next
    // tool answer, without a reload.
    browser.script("window.__notReloaded = true; return true;");
    java.nio.file.Path dir =
        java.nio.file.Path.of(
            content(ofKind(workbench.api.transcriptAll(id), "tool_result").get(0))
                .path("dir")
                .asString());
    assertThat(dir).isDirectory();
    java.nio.file.Files.writeString(
        dir.resolve("BOARD.md"), "# Nightly build\n\nStep two is done.\n");
    workbench.api.follow(
        id, script(Map.of("calls", List.of(call("current_time", Map.of("timezone", "UTC"))))));
    browser.text(".board-text", "Step two is done.");
    assertThat(browser.script("return window.__notReloaded === true")).isEqualTo(true);
    browser.click(browser.find(".page-header a.back"));
    browser.text(".board-row", "Nightly build");
    browser.screenshots("boards", ".board-row");
  }

  private static Map<String, Object> decision(String title, String what) {
    return Map.of(
        "title", title, "decision", what, "context", "the context", "reasoning", "the reasons");
  }

  private static void act(int index, String button, String text) {
    browser.find(".attachment-decisions[data-loaded='true']");
    String card = ".decision[data-index='" + index + "']";
    WebElement details = browser.find(card);
    if (details.getAttribute("open") == null) {
      browser.click(details.findElement(org.openqa.selenium.By.tagName("summary")));
    }
    if (text != null) {
      browser.find(card + " textarea").sendKeys(text);
    }
    browser.click(browser.text(card + " button", button));
  }
}
