package dev.cortex.workflows.consent;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The order of channels, the grace period, first answer wins, withdrawal and the timeout. */
class ChannelConsentTest {
  static final Confirmation QUESTION =
      new Confirmation(Confirmation.Kind.RUN, "run x", "Run x?", "Run");

  /** A channel the test answers by hand. */
  static final class Manual implements Channel {
    final String name;
    final String unavailable;
    final CountDownLatch asked = new CountDownLatch(1);
    volatile CompletableFuture<Boolean> answer;

    Manual(String name, String unavailable) {
      this.name = name;
      this.unavailable = unavailable;
    }

    Manual(String name) {
      this(name, null);
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Optional<String> unavailable() {
      return Optional.ofNullable(unavailable);
    }

    @Override
    public CompletableFuture<Boolean> ask(Confirmation confirmation, Duration within) {
      answer = new CompletableFuture<>();
      asked.countDown();
      return answer;
    }

    boolean wasAsked() {
      return asked.getCount() == 0;
    }

    void awaitAsked() throws InterruptedException {
      assertThat(asked.await(10, TimeUnit.SECONDS)).as(name + " asked").isTrue();
    }
  }

  static CompletableFuture<Decision> confirm(ChannelConsent consent) {
    return CompletableFuture.supplyAsync(() -> consent.confirm(QUESTION));
  }

  @Test
  void firstAvailableChannel_alone_withoutGrace() throws Exception {
    Manual elicitation = new Manual("elicitation");
    Manual dialog = new Manual("native");
    CompletableFuture<Decision> decision =
        confirm(new ChannelConsent(List.of(elicitation, dialog), null, Duration.ofSeconds(30)));

    elicitation.awaitAsked();
    elicitation.answer.complete(true);

    assertThat(decision.get(10, TimeUnit.SECONDS)).isEqualTo(Decision.approved("elicitation"));
    assertThat(dialog.wasAsked()).isFalse();
  }

  @Test
  void unavailableChannels_areSkipped() throws Exception {
    Manual elicitation = new Manual("elicitation", "the MCP client did not declare elicitation");
    Manual dialog = new Manual("native");
    CompletableFuture<Decision> decision =
        confirm(new ChannelConsent(List.of(elicitation, dialog), null, Duration.ofSeconds(30)));

    dialog.awaitAsked();
    dialog.answer.complete(false);

    assertThat(decision.get(10, TimeUnit.SECONDS)).isEqualTo(Decision.declined("native"));
  }

  @Test
  void noChannel_isRefused_withEveryReason() {
    Decision decision =
        new ChannelConsent(
                List.of(
                    new Manual("elicitation", "no elicitation"),
                    new Manual("native", "no display")),
                null,
                Duration.ofSeconds(30))
            .confirm(QUESTION);

    assertThat(decision).isEqualTo(Decision.noChannel("no elicitation; no display"));
  }

  @Test
  void aFailingChannel_handsOverToTheNext() throws Exception {
    Manual elicitation = new Manual("elicitation");
    Manual dialog = new Manual("native");
    CompletableFuture<Decision> decision =
        confirm(new ChannelConsent(List.of(elicitation, dialog), null, Duration.ofSeconds(30)));

    elicitation.awaitAsked();
    elicitation.answer.completeExceptionally(new IllegalStateException("client error"));
    dialog.awaitAsked();
    dialog.answer.complete(true);

    assertThat(decision.get(10, TimeUnit.SECONDS)).isEqualTo(Decision.approved("native"));
  }

  @Test
  void grace_offersTheNextChannelToo_firstAnswerWins_theOtherIsWithdrawn() throws Exception {
    Manual elicitation = new Manual("elicitation");
    Manual dialog = new Manual("native");
    CompletableFuture<Decision> decision =
        confirm(
            new ChannelConsent(
                List.of(elicitation, dialog), Duration.ofMillis(100), Duration.ofSeconds(30)));

    elicitation.awaitAsked();
    dialog.awaitAsked();
    dialog.answer.complete(true);

    assertThat(decision.get(10, TimeUnit.SECONDS)).isEqualTo(Decision.approved("native"));
    assertThat(elicitation.answer.isCancelled()).as("elicitation withdrawn").isTrue();
  }

  @Test
  void nobodyAnswering_timesOut_andEveryQuestionIsWithdrawn() throws Exception {
    Manual elicitation = new Manual("elicitation");
    Manual dialog = new Manual("native");

    Decision decision =
        new ChannelConsent(List.of(elicitation, dialog), Duration.ZERO, Duration.ofMillis(300))
            .confirm(QUESTION);

    assertThat(decision).isEqualTo(Decision.timedOut(Duration.ofMillis(300)));
    assertThat(decision.detail()).isEqualTo("300 ms");
    assertThat(elicitation.answer.isCancelled()).isTrue();
    assertThat(dialog.answer.isCancelled()).isTrue();
  }

  @Test
  void timeout_boundsEveryQuestionOfOneConfirmerTogether() {
    long[] now = {0};
    List<Duration> within = new java.util.ArrayList<>();
    Channel approves =
        new Channel() {
          @Override
          public String name() {
            return "native";
          }

          @Override
          public Optional<String> unavailable() {
            return Optional.empty();
          }

          @Override
          public CompletableFuture<Boolean> ask(Confirmation confirmation, Duration left) {
            within.add(left);
            return CompletableFuture.completedFuture(true);
          }
        };
    ChannelConsent consent =
        new ChannelConsent(List.of(approves), null, Duration.ofSeconds(45), () -> now[0]);

    assertThat(consent.confirm(QUESTION).approved()).isTrue();
    now[0] = Duration.ofSeconds(30).toNanos();
    assertThat(consent.confirm(QUESTION).approved()).isTrue();

    assertThat(within)
        .as("the second question (the run after trust) gets what is left of the wait")
        .containsExactly(Duration.ofSeconds(45), Duration.ofSeconds(15));
  }

  @Test
  void aChannelGivingUpWithoutAnAnswer_isNoApproval() {
    Channel givesUp =
        new Channel() {
          @Override
          public String name() {
            return "native";
          }

          @Override
          public Optional<String> unavailable() {
            return Optional.empty();
          }

          @Override
          public CompletableFuture<Boolean> ask(Confirmation confirmation, Duration within) {
            return CompletableFuture.completedFuture(null);
          }
        };

    assertThat(new ChannelConsent(List.of(givesUp), null, Duration.ofSeconds(5)).confirm(QUESTION))
        .isEqualTo(Decision.timedOut(Duration.ofSeconds(5)));
  }
}
