package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.storage.Database;
import dev.cortex.testing.MovableClock;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeviceCredentialsTest {
  @TempDir Path dir;
  MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
  Database database;
  DeviceCredentials credentials;

  @BeforeEach
  void open() {
    database = new Database(dir, List.of(DeviceCredentials.area()), Clock.systemUTC());
    credentials = new DeviceCredentials(() -> database, clock);
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void exchange_aFreshCode_givesACredentialForThatDeviceOnly() {
    String code = credentials.enrol("box1", Duration.ofMinutes(15)).code();

    String credential =
        credentials.exchange("box1", code.toLowerCase(java.util.Locale.ROOT).replace("-", " "));

    assertThat(credential).startsWith("cxd_");
    assertThat(credentials.verify("box1", credential)).isTrue();
    assertThat(credentials.verify("box2", credential)).isFalse();
    assertThat(credentials.enrolled()).containsExactly("box1");
  }

  @Test
  void exchange_usedExpiredOrOtherDevicesCodes_giveNothing() {
    String once = credentials.enrol("box1", Duration.ofMinutes(15)).code();
    String other = credentials.enrol("box2", Duration.ofMinutes(15)).code();
    String late = credentials.enrol("box1", Duration.ofMinutes(15)).code();

    assertThat(credentials.exchange("box1", once)).isNotNull();
    assertThat(credentials.exchange("box1", once)).as("used").isNull();
    assertThat(credentials.exchange("box1", other)).as("another device's").isNull();
    clock.advance(Duration.ofMinutes(16));
    assertThat(credentials.exchange("box1", late)).as("expired").isNull();
  }

  @Test
  void reEnrolment_replacesTheCredential_andRevokeEndsIt() {
    String first =
        credentials.exchange("box1", credentials.enrol("box1", Duration.ofMinutes(5)).code());
    String second =
        credentials.exchange("box1", credentials.enrol("box1", Duration.ofMinutes(5)).code());

    assertThat(credentials.verify("box1", first)).isFalse();
    assertThat(credentials.verify("box1", second)).isTrue();
    assertThat(credentials.revoke("box1")).isTrue();
    assertThat(credentials.verify("box1", second)).isFalse();
    assertThat(credentials.revoke("box1")).as("nothing left to revoke").isFalse();
  }

  @Test
  void storage_keepsOnlyHashes() throws Exception {
    String code = credentials.enrol("box1", Duration.ofMinutes(5)).code();
    String credential = credentials.exchange("box1", code);

    String dump =
        database.read(
            c -> {
              StringBuilder all = new StringBuilder();
              for (String table : List.of("device_credentials", "device_enrolments")) {
                try (var rs = c.createStatement().executeQuery("SELECT * FROM " + table)) {
                  while (rs.next()) {
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                      all.append(rs.getString(i)).append(' ');
                    }
                  }
                }
              }
              return all.toString();
            });

    assertThat(dump)
        .doesNotContain(credential)
        .doesNotContain(code)
        .doesNotContain(DeviceCredentials.normalise(code));
  }
}
