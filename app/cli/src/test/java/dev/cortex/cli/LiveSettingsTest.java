package dev.cortex.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.CortexHome;
import dev.cortex.base.StartupException;
import dev.cortex.server.daemon.SettingsProblem;
import dev.cortex.server.waitpoints.WaitSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cortex.toml while the server runs: edits take effect, bad ones leave the last good in force (they
 * used to make every read throw, which stopped the server's housekeeping).
 */
class LiveSettingsTest {
  static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

  @TempDir Path dir;
  CortexHome home;
  Path file;
  long edits;

  @BeforeEach
  void setUp() throws Exception {
    home = new CortexHome(dir, dir.resolve("data"));
    file = Files.createDirectories(home.configDir()).resolve("cortex.toml");
  }

  /** Writes the file, with a modification time of its own however quick the edits. */
  void edit(String toml) throws Exception {
    Files.writeString(file, toml);
    Files.setLastModifiedTime(file, FileTime.from(NOW.plusSeconds(++edits)));
  }

  LiveSettings started() {
    return Settings.live(
        home, Map.of(), Settings.load(home, Map.of()), Clock.fixed(NOW, ZoneOffset.UTC));
  }

  static Duration coalesce(LiveSettings live) {
    return live.get().get(WaitSettings.TABLE).coalesce();
  }

  @Test
  void get_aGoodEdit_takesEffect() throws Exception {
    edit("[waitpoints]\ncoalesce = \"5s\"\n");
    LiveSettings live = started();

    edit("[waitpoints]\ncoalesce = \"9s\"\n");

    assertThat(coalesce(live)).isEqualTo(Duration.ofSeconds(9));
    assertThat(live.problem()).isEmpty();
  }

  @Test
  void get_aBadValue_keepsTheLastGoodSettings_andProblemNamesFileAndKeyWithoutItsPath()
      throws Exception {
    edit("[waitpoints]\ncoalesce = \"5s\"\n");
    LiveSettings live = started();

    edit("[waitpoints]\ncoalesce = \"five seconds\"\n");

    assertThat(coalesce(live)).isEqualTo(Duration.ofSeconds(5));
    SettingsProblem problem = live.problem().orElseThrow();
    assertThat(problem.message())
        .startsWith("cortex.toml: [waitpoints] coalesce: ")
        .contains("five seconds")
        .doesNotContain(dir.toString());
    assertThat(problem.since()).isEqualTo(NOW);
  }

  @Test
  void get_theFileFixed_isReadAgain_andTheProblemClears() throws Exception {
    LiveSettings live = started();
    edit("[waitpoints\ncoalesce = ");
    assertThat(live.problem()).isPresent();
    assertThat(live.problem().orElseThrow().message())
        .startsWith("cortex.toml is not valid TOML")
        .doesNotContain(dir.toString());

    edit("[waitpoints]\ncoalesce = \"1s\"\n");

    assertThat(live.problem()).isEmpty();
    assertThat(coalesce(live)).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void get_anUnknownKey_isAProblemToo_andTheDefaultsStayInForce() throws Exception {
    LiveSettings live = started();

    edit("[waitpoints]\ncoalesse = \"1s\"\n");

    assertThat(coalesce(live)).isEqualTo(WaitSettings.DEFAULTS.coalesce());
    assertThat(live.problem().orElseThrow().message())
        .isEqualTo(
            "cortex.toml: unknown key [waitpoints] coalesse (known: coalesce, keep_resolved,"
                + " max_wakes_per_hour)");
  }

  @Test
  void get_theFileRemoved_isTheDefaults() throws Exception {
    edit("[waitpoints]\ncoalesce = \"5s\"\n");
    LiveSettings live = started();

    Files.delete(file);

    assertThat(coalesce(live)).isEqualTo(WaitSettings.DEFAULTS.coalesce());
    assertThat(live.problem()).isEmpty();
  }

  @Test
  void get_withoutSettingsToKeep_aBadFileIsThrown() throws Exception {
    edit("[waitpoints]\ncoalesce = 5\n");
    LiveSettings live = Settings.live(home, Map.of(), null, Clock.fixed(NOW, ZoneOffset.UTC));

    assertThatThrownBy(live::get)
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("[waitpoints] coalesce");
  }
}
