package dev.cortex.server.waitpoints;

import static dev.cortex.server.waitpoints.WaitFixture.SESSION;
import static dev.cortex.server.waitpoints.WaitFixture.START;
import static dev.cortex.server.waitpoints.WaitFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.protocol.webhook.Waits;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Creating, checking and cancelling waitpoints. */
class WaitpointsCreateTest {
  @TempDir Path dir;
  WaitFixture fixture;

  @BeforeEach
  void open() {
    fixture = new WaitFixture(dir);
  }

  @AfterEach
  void close() {
    fixture.close();
  }

  @Test
  void create_labelAndIntentOnly_isOpenWithTheDefaults() {
    Waitpoints.Created created = fixture.create();

    Waits.View view = fixture.view(created);
    assertThat(view.id()).matches("wp-[0-9a-f]{12}");
    assertThat(view.state()).isEqualTo("open");
    assertThat(view.members()).isNull();
    assertThat(view.quorum()).isEqualTo(1);
    assertThat(view.failFast()).isTrue();
    assertThat(view.maxSignals()).isEqualTo(1);
    assertThat(view.round()).isEqualTo(1);
    assertThat(view.createdAt()).isEqualTo(START.toString());
    assertThat(view.expiresAt()).isEqualTo(START.plus(Duration.ofHours(168)).toString());
    assertThat(created.secret()).matches(Waits.SECRET);
  }

  @Test
  void create_theSecret_isKeptOnlyAsItsHash() {
    Waitpoints.Created created = fixture.create();

    Waitpoint stored = fixture.database.read(c -> WaitStore.get(c, created.waitpoint().id()));
    assertThat(stored.secretSha256())
        .isEqualTo(Secrets.sha256(created.secret()))
        .doesNotContain(created.secret());
  }

  @Test
  void create_membersWithoutQuorum_waitsForAllOfThem() {
    Waitpoints.Created created = fixture.create(request().members("a", "b", "c"));

    assertThat(fixture.view(created).quorum()).isEqualTo(3);
  }

  static Stream<Arguments> badRequests() {
    List<Consumer<WaitFixture.Request>> bad =
        List.of(
            r -> r.label = null,
            r -> r.label = "  ",
            r -> r.label = "x".repeat(Waits.MAX_LABEL + 1),
            r -> r.label = "two\nlines",
            r -> r.intent = null,
            r -> r.intent = "y".repeat(Waits.MAX_INTENT + 1),
            r -> r.expiresInHours = 0.5,
            r -> r.expiresInHours = 721.0,
            r -> r.maxSignals = 0,
            r -> r.maxSignals = Waits.MAX_SIGNALS + 1,
            r -> r.quorum = 0,
            r -> r.quorum = "some",
            r -> r.quorum = "all",
            r -> r.quorum = 1.5,
            r -> r.members("a", "b").quorum = 3,
            r -> r.members = List.of(),
            r -> r.members("a", "a"),
            r -> r.members("bad name"),
            r -> r.device = "nosuchbox");
    return bad.stream().map(change -> Arguments.of(change));
  }

  @ParameterizedTest
  @MethodSource("badRequests")
  void create_aBadField_isInvalidArgumentAndWritesNothing(Consumer<WaitFixture.Request> change) {
    WaitFixture.Request request = request();
    change.accept(request);

    assertThatThrownBy(() -> fixture.create(request))
        .isInstanceOfSatisfying(
            WaitException.class,
            e -> {
              assertThat(e.code()).isEqualTo(WaitException.INVALID_ARGUMENT);
              assertThat(e.getMessage()).doesNotContain("Exception").doesNotContain("SQL");
            });
    assertThat(fixture.waitpoints.check(SESSION, null)).isEmpty();
  }

  @Test
  void create_anUnknownDevice_namesTheRegisteredOnes() {
    WaitFixture.Request request = request();
    request.device = "nosuchbox";

    assertThatThrownBy(() -> fixture.create(request))
        .hasMessage("No device 'nosuchbox' is registered; registered: box1.");
  }

  @Test
  void create_outsideASessionOrForAnUnknownOne_isNoSession() {
    WaitFixture.Request none = request();
    none.sessionId = null;
    WaitFixture.Request unknown = request();
    unknown.sessionId = "ses-unknown";

    for (WaitFixture.Request request : List.of(none, unknown)) {
      assertThatThrownBy(() -> fixture.create(request))
          .isInstanceOfSatisfying(
              WaitException.class, e -> assertThat(e.code()).isEqualTo(Waits.Codes.NO_SESSION));
    }
  }

  @Test
  void create_beyondTheOpenLimitOfASession_isRefusedUntilOneIsCancelled() {
    Waitpoints.Created first = fixture.create();
    for (int i = 1; i < Waits.MAX_OPEN_PER_SESSION; i++) {
      fixture.create();
    }

    assertThatThrownBy(fixture::create).hasMessageContaining("cancel some (wait_cancel) first");
    fixture.waitpoints.cancel(SESSION, first.waitpoint().id());
    assertThat(fixture.create().waitpoint().state()).isEqualTo(Waitpoint.State.OPEN);
  }

  @Test
  void cancel_anOpenWaitpoint_endsIt_andASecondCancelChangesNothing() {
    Waitpoints.Created created = fixture.create();
    String id = created.waitpoint().id();

    Waits.Cancelled cancelled = fixture.waitpoints.cancel(SESSION, id);
    Waits.Cancelled again = fixture.waitpoints.cancel(SESSION, id);

    assertThat(cancelled.cancelled()).isTrue();
    assertThat(cancelled.state()).isEqualTo("cancelled");
    assertThat(again.cancelled()).isFalse();
    assertThat(again.message()).contains("had already been cancelled at " + START);
    assertThat(fixture.waitpoints.check(SESSION, null)).isEmpty();
    assertThat(fixture.view(created).endedAt()).isEqualTo(START.toString());
  }

  @Test
  void check_anotherSessionsWaitpointOrABadId_isRefused() {
    fixture.inbox.session("ses-other");
    Waitpoints.Created created = fixture.create();

    assertThatThrownBy(() -> fixture.waitpoints.check("ses-other", created.waitpoint().id()))
        .isInstanceOfSatisfying(
            WaitException.class, e -> assertThat(e.code()).isEqualTo(Waits.Codes.NOT_FOUND));
    assertThatThrownBy(() -> fixture.waitpoints.cancel("ses-other", created.waitpoint().id()))
        .isInstanceOfSatisfying(
            WaitException.class, e -> assertThat(e.code()).isEqualTo(Waits.Codes.NOT_FOUND));
    assertThatThrownBy(() -> fixture.waitpoints.check(SESSION, "wp-nope"))
        .isInstanceOfSatisfying(
            WaitException.class,
            e -> assertThat(e.code()).isEqualTo(WaitException.INVALID_ARGUMENT));
    assertThatThrownBy(() -> fixture.waitpoints.check(null, null))
        .isInstanceOfSatisfying(
            WaitException.class, e -> assertThat(e.code()).isEqualTo(Waits.Codes.NO_SESSION));
  }
}
