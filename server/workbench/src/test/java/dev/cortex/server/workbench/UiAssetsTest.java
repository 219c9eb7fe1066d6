package dev.cortex.server.workbench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class UiAssetsTest {
  @Test
  void resource_pagesAndAssets_mapToTheClasspath() {
    assertThat(UiAssets.resource("/")).isEqualTo("workbench/index.html");
    assertThat(UiAssets.resource("/signin")).isEqualTo("workbench/signin.html");
    assertThat(UiAssets.resource("/assets/app.css")).isEqualTo("workbench/assets/app.css");
    assertThat(UiAssets.resource("/assets/vendor/uplot/uPlot.iife.min.js"))
        .isEqualTo(UiAssets.UPLOT + "uPlot.iife.min.js");
  }

  @Test
  void resource_traversalDirectoriesAndStrangeNames_areNone() {
    for (String path :
        new String[] {
          "/assets/../x.js",
          "/assets/a/../../b.js",
          "/assets/",
          "/assets/vendor/",
          "/assets//a.js",
          "/assets/a\\b.js",
          "/assets/a%2e.js",
          "/assets/a.class",
          "/assets/noextension",
          "/workbench/index.html",
          "/signin/",
          null
        }) {
      assertThat(UiAssets.resource(path)).as(path).isNull();
    }
  }

  @Test
  void uplot_isOnTheClasspath() {
    assertThat(UiAssets.class.getClassLoader().getResource(UiAssets.UPLOT + "uPlot.min.css"))
        .isNotNull();
  }
}
