package dev.cortex.server.daemon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.base.CodedException;
import dev.cortex.base.CortexHome;
import dev.cortex.models.ModelPrices;
import dev.cortex.protocol.session.Interactions;
import dev.cortex.protocol.session.Sessions;
import dev.cortex.server.sessions.AllowlistCheck;
import dev.cortex.server.sessions.Budgets;
import dev.cortex.server.sessions.SessionEnvironment;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.SessionSettings;
import dev.cortex.server.sessions.backend.CommandBackend;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.storage.Database;
import dev.cortex.testing.MovableClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The interaction store on a real database: who answers first, the TTL by the clock, pruning. */
class InteractionServiceTest {
  @TempDir Path dir;
  final MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
  Database database;
  SessionService sessions;
  InteractionService interactions;
  Path work;
  String sessionId;

  @BeforeEach
  void start() throws Exception {
    Path home = Files.createDirectories(dir.resolve("home"));
    work = Files.createDirectories(dir.resolve("work"));
    database =
        new Database(
            home,
            List.of(SessionsSchema.area(), InteractionsSchema.area()),
            java.time.Clock.systemUTC());
    sessions =
        new SessionService(
            new SessionStore(() -> database, clock),
            new Executions(() -> database, clock),
            new Costs(() -> database, clock),
            Map.of(CommandBackend.NAME, new CommandBackend()),
            new SessionEnvironment(
                new CortexHome(home, home.resolve("data")), Map.of(), "token", () -> 3001),
            () -> Budgets.NONE,
            new SessionSettings("command", null, Duration.ofMinutes(1)),
            ModelPrices.shipped(),
            clock,
            AllowlistCheck.NONE);
    sessionId =
        sessions
            .create(
                new SessionService.NewSession(
                    "s1",
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    null,
                    List.of("true"),
                    work,
                    null))
            .id();
    interactions = new InteractionService(() -> database, sessions, Duration.ofMinutes(30), clock);
  }

  @AfterEach
  void stop() {
    interactions.close();
    sessions.close();
    database.close();
  }

  private Interactions.View ask(boolean blocking) {
    return interactions
        .ask(
            new Interactions.Ask(
                sessionId,
                List.of(
                    new Interactions.Question(
                        "Which?",
                        "Pick",
                        List.of(
                            new Interactions.Option("a", null), new Interactions.Option("b", null)),
                        null)),
                null,
                blocking))
        .interaction();
  }

  private static Interactions.Answer pick(String id, String label, String via) {
    return new Interactions.Answer(
        id, List.of(new Interactions.QuestionAnswer(List.of(label), null)), null, null, "ana", via);
  }

  @Test
  void answer_twice_firstWins_andTheSecondIsAlreadyAnswered() {
    Interactions.View open = ask(true);
    assertThat(interactions.waitingFor(sessionId)).isEqualTo("question");

    Interactions.View answered = interactions.answer(pick(open.id(), "b", "terminal"));

    assertThat(answered.state()).isEqualTo(Interactions.ANSWERED);
    assertThat(answered.answer().by()).isEqualTo("ana");
    assertThat(answered.answer().via()).isEqualTo("terminal");
    assertThatThrownBy(() -> interactions.answer(pick(open.id(), "a", "api")))
        .isInstanceOfSatisfying(
            CodedException.class,
            e -> assertThat(e.code()).isEqualTo(Interactions.Codes.ALREADY_ANSWERED));
    assertThat(interactions.show(open.id()).answer().answers().get(0).selected())
        .containsExactly("b");
    assertThat(interactions.waitingFor(sessionId)).isNull();
  }

  @Test
  void answer_optionNotAsked_isRefusedAndNothingIsWritten() {
    Interactions.View open = ask(true);

    assertThatThrownBy(() -> interactions.answer(pick(open.id(), "c", "api")))
        .isInstanceOfSatisfying(
            CodedException.class, e -> assertThat(e.getMessage()).contains("no option 'c'"));
    assertThat(interactions.show(open.id()).state()).isEqualTo(Interactions.OPEN);
  }

  @Test
  void sweep_pastTheTtl_expires_andAnAnswerThenIsRefused() {
    Interactions.View open = ask(false);
    clock.advance(Duration.ofMinutes(29));
    interactions.sweep();
    assertThat(interactions.show(open.id()).state()).isEqualTo(Interactions.OPEN);

    clock.advance(Duration.ofMinutes(1));
    interactions.sweep();

    assertThat(interactions.show(open.id()).state()).isEqualTo(Interactions.EXPIRED);
    assertThatThrownBy(() -> interactions.answer(pick(open.id(), "a", "api")))
        .isInstanceOfSatisfying(
            CodedException.class, e -> assertThat(e.code()).isEqualTo(Interactions.Codes.EXPIRED));
  }

  @Test
  void await_pastTheTtl_answersExpired() {
    Interactions.View open = ask(true);
    clock.advance(Duration.ofMinutes(31));

    Interactions.View waited = interactions.await(new Interactions.Await(sessionId, open.id(), 5));

    assertThat(waited.state()).isEqualTo(Interactions.EXPIRED);
  }

  @Test
  void await_ofAnotherSession_isNotFound() {
    Interactions.View open = ask(true);

    assertThatThrownBy(() -> interactions.await(new Interactions.Await("ses-other", open.id(), 0)))
        .isInstanceOfSatisfying(
            CodedException.class,
            e -> assertThat(e.code()).isEqualTo(Interactions.Codes.NOT_FOUND));
  }

  @Test
  void sweep_afterTheRetention_forgetsEndedRecords_butNotOpenOnes() {
    Interactions.View answered = ask(true);
    interactions.answer(pick(answered.id(), "a", "api"));
    clock.advance(InteractionService.RETENTION.minusMinutes(1));
    Interactions.View open = ask(true);
    interactions.sweep();
    assertThat(interactions.show(answered.id()).state()).isEqualTo(Interactions.ANSWERED);

    // The store is pruned once an hour.
    clock.advance(Duration.ofMinutes(61));
    interactions.sweep();

    assertThatThrownBy(() -> interactions.show(answered.id()))
        .isInstanceOfSatisfying(
            CodedException.class,
            e -> assertThat(e.code()).isEqualTo(Interactions.Codes.NOT_FOUND));
    assertThat(interactions.list(new Interactions.Listing(null, true)).interactions())
        .extracting(Interactions.View::id)
        .containsExactly(open.id());
  }

  @Test
  void ask_overTheOpenLimit_isTooManyOpen() {
    for (int i = 0; i < Interactions.MAX_OPEN_PER_SESSION; i++) {
      ask(false);
    }
    assertThatThrownBy(() -> ask(false))
        .isInstanceOfSatisfying(
            CodedException.class,
            e -> assertThat(e.code()).isEqualTo(Interactions.Codes.TOO_MANY_OPEN));
  }

  @Test
  void submitPlan_outsideOrMissing_isRefusedWithoutNamingTheDirectory() throws Exception {
    Files.writeString(dir.resolve("secret.md"), "outside");
    Files.createDirectories(work.resolve("plan"));
    Files.createSymbolicLink(work.resolve("plan/link.md"), dir.resolve("secret.md"));

    for (String path :
        List.of("../secret.md", "plan/link.md", dir.resolve("secret.md").toString())) {
      assertThatThrownBy(
              () -> interactions.submitPlan(new Interactions.PlanSubmit(sessionId, path, null)))
          .isInstanceOfSatisfying(
              CodedException.class,
              e -> {
                assertThat(e.code()).isEqualTo(Interactions.Codes.PLAN_OUTSIDE);
                assertThat(e.getMessage()).doesNotContain(work.toString());
              });
    }
    assertThatThrownBy(
            () ->
                interactions.submitPlan(
                    new Interactions.PlanSubmit(sessionId, "plan/none.md", null)))
        .isInstanceOfSatisfying(
            CodedException.class,
            e -> assertThat(e.code()).isEqualTo(Interactions.Codes.PLAN_NOT_FOUND));
  }

  @Test
  void planning_enteredThenApproved_isNoLonger() throws Exception {
    Files.createDirectories(work.resolve("plan"));
    Files.writeString(work.resolve("plan/PLAN.md"), "# do it\n");
    interactions.enterPlan(new Interactions.PlanEnter(sessionId, "big change"));
    assertThat(interactions.planning(sessionId)).isTrue();
    Interactions.View plan =
        interactions
            .submitPlan(new Interactions.PlanSubmit(sessionId, "plan/PLAN.md", "short"))
            .interaction();
    assertThat(plan.plan().content()).isEqualTo("# do it\n");
    assertThat(interactions.waitingFor(sessionId)).isEqualTo("plan");

    interactions.answer(new Interactions.Answer(plan.id(), null, true, null, null, "api"));

    assertThat(interactions.planning(sessionId)).isFalse();
    assertThat(interactions.show(plan.id()).answer().approved()).isTrue();
  }

  @Test
  void answer_rejectedPlanWithoutFeedback_cannotBeBuilt() {
    assertThatThrownBy(
            () -> new Interactions.Answer("ia-000000000001", null, false, " ", null, null))
        .isInstanceOf(Sessions.BadRequest.class)
        .hasMessageContaining("feedback");
  }
}
