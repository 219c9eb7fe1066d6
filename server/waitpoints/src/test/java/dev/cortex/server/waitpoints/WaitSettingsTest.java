package dev.cortex.server.waitpoints;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.StartupException;
import dev.cortex.base.settings.CortexToml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code [waitpoints]} table. */
class WaitSettingsTest {
  @TempDir Path dir;

  WaitSettings load(String toml) throws Exception {
    Files.writeString(dir.resolve(CortexToml.FILE), toml);
    return CortexToml.load(dir, Map.of(), List.of(WaitSettings.TABLE)).get(WaitSettings.TABLE);
  }

  @Test
  void read_nothingSet_isTheDefaults() throws Exception {
    assertThat(load("")).isEqualTo(WaitSettings.DEFAULTS);
  }

  @Test
  void read_theDocumentedExample_isTheDefaults() throws Exception {
    WaitSettings settings =
        load(
            """
            [waitpoints]
            coalesce = "3s"
            max_wakes_per_hour = 20
            keep_resolved = "720h"
            """);

    assertThat(settings).isEqualTo(WaitSettings.DEFAULTS);
    assertThat(settings.keepResolved()).isEqualTo(Duration.ofDays(30));
  }

  @Test
  void read_valuesOutOfRange_nameTheKeyAndTheRange() {
    assertThatThrownBy(() -> load("[waitpoints]\ncoalesce = \"2m\"\n"))
        .isInstanceOf(StartupException.class)
        .hasMessageContaining("[waitpoints] coalesce: use a duration from 0s to 60s");
    assertThatThrownBy(() -> load("[waitpoints]\nkeep_resolved = \"30m\"\n"))
        .hasMessageContaining("[waitpoints] keep_resolved: use a duration from 1h to 8760h");
    assertThatThrownBy(() -> load("[waitpoints]\nmax_wakes_per_hour = 0\n"))
        .hasMessageContaining("[waitpoints] max_wakes_per_hour: 0 is out of range: use 1 to 1000");
  }
}
