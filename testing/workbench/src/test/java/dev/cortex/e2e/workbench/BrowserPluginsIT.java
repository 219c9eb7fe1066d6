package dev.cortex.e2e.workbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.CliRun;
import dev.cortex.testing.CortexProcess;
import dev.cortex.testing.TestJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The plugins page: a package with a stdio server (a second {@code cortex mcp}) is listed with its
 * summary; a person reviews what it adds to a project (the tools its server lists now), assigns it
 * with one click, sees where it is assigned, and removes it again. The page never shows a value of
 * the server's environment.
 */
class BrowserPluginsIT extends OnWorkbench {
  static final String SECRET = "workbench-plugin-secret-77c2";

  @Test
  void aPersonReviewsWhatAPluginAdds_assignsIt_andRemovesIt() throws Exception {
    Path root = Files.createDirectories(home.resolve("plugins/clock/bin"));
    Files.writeString(home.resolve("plugins/clock/plugin.json"), "{\"name\": \"Clock\"}");
    StringBuilder exec = new StringBuilder("#!/bin/sh\nexec");
    for (String arg : CortexProcess.command("mcp", "--bundles", "core")) {
      exec.append(" '").append(arg).append("'");
    }
    Path serve = root.resolve("serve");
    Files.writeString(serve, exec + "\n");
    Files.setPosixFilePermissions(serve, PosixFilePermissions.fromString("rwx------"));
    Files.writeString(
        home.resolve("plugins/clock/mcp.json"),
        "{\"mcpServers\": {\"time\": {\"command\": \"${PLUGIN_ROOT}/bin/serve\","
            + " \"env\": {\"CLOCK_KEY\": \""
            + SECRET
            + "\"}}}}");

    browser.get(workbench.url() + "/#/plugins");
    browser.text("table.data", "time (stdio): serve, 0 arguments, env CLOCK_KEY");
    browser.find("input[name='project']").sendKeys("web-proj");
    browser.click(browser.text("button", "Review what it adds"));
    browser.text(".offer", "current_time");
    browser.text(".offer h3", "clock adds to project web-proj");
    browser.screenshot("plugins-offer");
    browser.click(browser.text(".offer button", "Assign clock"));
    browser.text("[role='status']", "clock is assigned to project web-proj.");
    browser.text("li[data-environment='web-proj'][data-state='active']", "active");
    assertThat(browser.driver.getPageSource()).doesNotContain(SECRET);

    CliRun list = CliRun.run(workbench.server, "", "plugins", "list", "--json");
    JsonNode assigned = TestJson.JSON.readTree(list.stdout()).path("assignments").get(0);
    assertThat(assigned.path("environment").asString()).isEqualTo("web-proj");
    assertThat(assigned.path("confirmed_by").asString()).isEqualTo("workbench");

    browser.click(browser.text("li[data-environment='web-proj'] button", "Remove"));
    browser.text("[role='status']", "clock is no longer assigned to project web-proj.");
    assertThat(
            TestJson.JSON
                .readTree(CliRun.run(workbench.server, "", "plugins", "list", "--json").stdout())
                .path("assignments")
                .size())
        .isZero();
  }
}
