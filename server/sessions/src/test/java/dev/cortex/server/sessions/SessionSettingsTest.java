package dev.cortex.server.sessions;

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

class SessionSettingsTest {
  @TempDir Path dir;

  SessionSettings load(String toml) throws Exception {
    Files.writeString(dir.resolve("cortex.toml"), toml);
    return CortexToml.load(dir, Map.of(), List.of(SessionSettings.TABLE))
        .get(SessionSettings.TABLE);
  }

  @Test
  void load_maxTurnFromOneMinuteToTwoDays_isTaken() throws Exception {
    assertThat(load("[sessions]\nmax_turn = \"1m\"\n").maxTurn()).isEqualTo(Duration.ofMinutes(1));
    assertThat(load("[sessions]\nmax_turn = \"48h\"\n").maxTurn()).isEqualTo(Duration.ofDays(2));
    assertThat(load("").maxTurn()).isEqualTo(Duration.ofHours(2));
  }

  @Test
  void load_maxTurnUnderAMinuteOrOverTwoDays_isRefusedNamingTheKey() {
    for (String value : List.of("59s", "49h")) {
      assertThatThrownBy(() -> load("[sessions]\nmax_turn = \"" + value + "\"\n"))
          .as(value)
          .isInstanceOf(StartupException.class)
          .hasMessageContaining("[sessions] max_turn")
          .hasMessageContaining("use a duration from 1m to 48h");
    }
  }
}
