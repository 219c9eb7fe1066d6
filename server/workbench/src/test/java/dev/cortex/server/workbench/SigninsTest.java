package dev.cortex.server.workbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.storage.Database;
import dev.cortex.testing.MovableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SigninsTest {
  @TempDir Path dir;
  MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
  Database database;
  Signins signins;

  @BeforeEach
  void open() {
    database = new Database(dir, List.of(Signins.area()), Clock.systemUTC());
    signins = new Signins(() -> database, clock, Duration.ofHours(12));
  }

  @AfterEach
  void close() {
    database.close();
  }

  @Test
  void signIn_aFreshLink_givesASession_once() {
    Signins.Link link = signins.link();
    assertThat(link.secret()).startsWith("cxl_");
    assertThat(link.expiresAt()).isEqualTo(clock.instant().plus(Signins.LINK_VALID_FOR));

    Signins.Session session = signins.signIn(link.secret());

    assertThat(session.cookie()).startsWith("cxc_");
    assertThat(signins.find(session.cookie()).csrf()).isEqualTo(session.csrf());
    assertThat(signins.signIn(link.secret())).isNull();
  }

  @Test
  void signIn_wrongBlankOrOverlongLink_isRefused() {
    signins.link();
    assertThat(signins.signIn("cxl_nope")).isNull();
    assertThat(signins.signIn("")).isNull();
    assertThat(signins.signIn(null)).isNull();
    assertThat(signins.signIn("x".repeat(500))).isNull();
  }

  @Test
  void signIn_linkPastTenMinutes_isRefused() {
    Signins.Link link = signins.link();
    clock.advance(Signins.LINK_VALID_FOR.plusSeconds(1));
    assertThat(signins.signIn(link.secret())).isNull();
  }

  @Test
  void find_sessionPastItsLength_isGone() {
    Signins.Session session = signins.signIn(signins.link().secret());
    clock.advance(Duration.ofHours(12).minusSeconds(1));
    assertThat(signins.find(session.cookie())).isNotNull();
    clock.advance(Duration.ofSeconds(1));
    assertThat(signins.find(session.cookie())).isNull();
  }

  @Test
  void signOut_endsOneSession_logoutAllEndsEveryAndUnusedLinks() {
    Signins.Session one = signins.signIn(signins.link().secret());
    Signins.Session two = signins.signIn(signins.link().secret());
    Signins.Link unused = signins.link();

    signins.signOut(one.cookie());
    assertThat(signins.find(one.cookie())).isNull();
    assertThat(signins.find(two.cookie())).isNotNull();

    assertThat(signins.logoutAll()).isEqualTo(1);
    assertThat(signins.find(two.cookie())).isNull();
    assertThat(signins.signIn(unused.secret())).isNull();
  }

  @Test
  void store_keepsHashesOnly() throws Exception {
    Signins.Link unused = signins.link();
    Signins.Session session = signins.signIn(signins.link().secret());
    database.close();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
        assertThat(bytes).doesNotContain(unused.secret()).doesNotContain(session.cookie());
      }
    }
    database = new Database(dir, List.of(Signins.area()), Clock.systemUTC());
  }
}
