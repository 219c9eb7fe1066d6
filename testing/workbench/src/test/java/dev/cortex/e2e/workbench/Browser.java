package dev.cortex.e2e.workbench;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The system's headless Chromium driven by its own chromedriver: Selenium Manager never runs (the
 * driver's binary is given), so the tests need no network. Without Chromium the tests are skipped
 * with a message, unless {@code CI=true}, where they fail.
 */
final class Browser implements AutoCloseable {
  static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  /** How long a page has to show what a test waits for; a deadline, not a measured time. */
  static final Duration WAIT = Duration.ofSeconds(60);

  static final Path SCREENSHOTS = Path.of("target", "screenshots");

  final ChromeDriver driver;
  final Path downloads;
  private final Path profile;

  private Browser(ChromeDriver driver, Path profile, Path downloads) {
    this.driver = driver;
    this.profile = profile;
    this.downloads = downloads;
  }

  /** Skips the test (or fails it under CI) when Chromium or its driver is missing. */
  static void requireChromium() {
    boolean present = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
    String message =
        "Chromium is not installed ("
            + CHROMIUM
            + ", "
            + CHROMEDRIVER
            + "): install the packages chromium and chromium-driver to run the browser tests";
    if (!present && "true".equals(System.getenv("CI"))) {
      Assertions.fail(message);
    }
    Assumptions.assumeTrue(present, message);
  }

  static Browser open() throws IOException {
    requireChromium();
    Path profile = Files.createTempDirectory("cortex-chromium-");
    Path downloads = Files.createDirectories(profile.resolve("downloads"));
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1280,900",
        "--user-data-dir=" + profile.resolve("profile"));
    options.setExperimentalOption(
        "prefs",
        Map.of(
            "download.default_directory", downloads.toString(),
            "download.prompt_for_download", false,
            "safebrowsing.enabled", false));
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(CHROMEDRIVER.toFile())
            .usingAnyFreePort()
            .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(30));
    // Headless Chromium keeps downloads only where it is told to, through the DevTools protocol.
    driver.executeCdpCommand(
        "Browser.setDownloadBehavior",
        Map.of("behavior", "allow", "downloadPath", downloads.toString()));
    return new Browser(driver, profile, downloads);
  }

  void get(String url) {
    driver.get(url);
  }

  WebElement find(String css) {
    return until(css, d -> first(d, css));
  }

  List<WebElement> all(String css) {
    return driver.findElements(By.cssSelector(css));
  }

  /** Waits until the element {@code css} is there and its text contains {@code text}. */
  WebElement text(String css, String text) {
    return until(
        css + " with the text '" + text + "'",
        d -> {
          for (WebElement e : d.findElements(By.cssSelector(css))) {
            try {
              if (e.getText().contains(text)) {
                return e;
              }
            } catch (org.openqa.selenium.StaleElementReferenceException stale) {
              // redrawn meanwhile: look again
            }
          }
          return null;
        });
  }

  <T> T until(Function<WebDriver, T> condition) {
    return until("the page's condition", condition);
  }

  /** Waits until {@code condition} gives a value; the failure names {@code what}. */
  <T> T until(String what, Function<WebDriver, T> condition) {
    try {
      return new WebDriverWait(driver, WAIT)
          .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
          .until(condition);
    } catch (org.openqa.selenium.TimeoutException e) {
      failures++;
      screenshot("failed-" + failures);
      String page = driver.findElement(By.tagName("body")).getText();
      throw new AssertionError(
          "waited in vain for "
              + what
              + " on "
              + driver.getCurrentUrl()
              + " (screenshot failed-"
              + failures
              + "); the page says:\n"
              + page,
          e);
    }
  }

  private static int failures;

  private static WebElement first(WebDriver d, String css) {
    List<WebElement> found = d.findElements(By.cssSelector(css));
    return found.isEmpty() ? null : found.get(0);
  }

  /**
   * Scrolls {@code element} to the middle of the window (clear of the fixed composer), clicks it.
   */
  void click(WebElement element) {
    script("arguments[0].scrollIntoView({block: 'center'})", element);
    element.click();
  }

  Object script(String js, Object... args) {
    return ((JavascriptExecutor) driver).executeScript(js, args);
  }

  /** Saves a screenshot of the page as target/screenshots/NAME.png. */
  void screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      File shot = driver.getScreenshotAs(OutputType.FILE);
      Files.copy(
          shot.toPath(), SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Light, dark and phone-width screenshots of the page now open; the theme is left as found. */
  void screenshots(String name, String readyCss) {
    theme("light");
    find(readyCss);
    screenshot(name + "-light");
    theme("dark");
    find(readyCss);
    screenshot(name + "-dark");
    driver.manage().window().setSize(new Dimension(390, 844));
    theme("light");
    find(readyCss);
    screenshot(name + "-phone");
    driver.manage().window().setSize(new Dimension(1280, 900));
    theme("system");
  }

  /** Sets the page's saved theme (as the toggle does) and reloads. */
  void theme(String theme) {
    script("localStorage.setItem('cortex.theme', arguments[0])", theme);
    driver.navigate().refresh();
  }

  @Override
  public void close() {
    driver.quit();
    try (var files = Files.walk(profile)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException ignored) {
      // a temporary folder left behind
    }
  }
}
