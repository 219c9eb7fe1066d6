package dev.cortex.e2e.workbench;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * A browser test class: one agent server with its workbench and one signed-in Chromium for all its
 * tests; each test makes its own sessions.
 */
abstract class OnWorkbench {
  @TempDir static Path home;
  @TempDir static Path work;

  static Workbench workbench;
  static Browser browser;

  @BeforeAll
  static void open() throws Exception {
    Browser.requireChromium();
    workbench = Workbench.start(home, work);
    browser = Browser.open();
    workbench.signIn(browser);
  }

  @AfterAll
  static void close() {
    if (browser != null) {
      browser.close();
      browser = null;
    }
    if (workbench != null) {
      workbench.close();
      workbench = null;
    }
  }

  /** Opens a session's page and waits until its transcript is drawn. */
  static void openSession(String id) {
    browser.get(workbench.url() + "/#/s/" + id);
    browser.find(".session-head .badge");
  }
}
