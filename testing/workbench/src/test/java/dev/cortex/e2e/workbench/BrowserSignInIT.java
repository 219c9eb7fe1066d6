package dev.cortex.e2e.workbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Cookie;

/** Signing in with the one-time link of {@code cortex ui}, in headless Chromium. */
class BrowserSignInIT {
  @TempDir static Path home;
  @TempDir static Path work;
  static Workbench workbench;

  @BeforeAll
  static void start() throws Exception {
    Browser.requireChromium();
    workbench = Workbench.start(home, work);
  }

  @AfterAll
  static void stop() {
    if (workbench != null) {
      workbench.close();
    }
  }

  @Test
  void signIn_withTheLink_opensTheSessions_hidesTheSecret_andKeepsTheCookieFromScripts()
      throws Exception {
    try (Browser browser = Browser.open()) {
      String link = workbench.link();
      String secret = link.substring(link.indexOf('#') + 1);
      assertThat(link).startsWith(workbench.url() + "/signin#");
      browser.get(link);
      browser.find("body.signed-in");
      browser.find("[data-page='sessions'] .page-header");
      assertThat(browser.driver.getCurrentUrl()).doesNotContain(secret);
      Cookie cookie = browser.driver.manage().getCookieNamed("cortex_ui");
      assertThat(cookie).isNotNull();
      assertThat(cookie.isHttpOnly()).isTrue();
      assertThat((String) browser.script("return document.cookie")).doesNotContain("cortex_ui");
      assertThat(browser.find("#live-status").getAttribute("data-status")).isNotNull();
      browser.text("#live-status", "live");
      browser.screenshots("sessions-empty", ".empty");
    }
  }

  @Test
  void signIn_aLinkUsedOnce_isRefusedTheSecondTime_andThePageSaysHowToGetANewOne()
      throws Exception {
    String link = workbench.link();
    try (Browser first = Browser.open()) {
      first.get(link);
      first.find("body.signed-in");
    }
    try (Browser second = Browser.open()) {
      second.get(link);
      second.text("#signin-status", "wrong, expired or was used already");
      assertThat(second.find("#signin-help").isDisplayed()).isTrue();
      assertThat(second.find("#signin-help").getText()).contains("cortex ui");
      assertThat(second.driver.getCurrentUrl()).doesNotContain("#");
      second.screenshots("signin-refused", "#signin-help");
    }
  }

  @Test
  void aPageWithoutACookie_asksToSignInWithCortexUi() throws Exception {
    try (Browser browser = Browser.open()) {
      browser.get(workbench.url() + "/#/costs");
      browser.text(".signin-needed", "cortex ui --open");
      assertThat(browser.all("body.signed-in")).isEmpty();
      browser.screenshots("signin-needed", ".signin-needed");
    }
  }
}
