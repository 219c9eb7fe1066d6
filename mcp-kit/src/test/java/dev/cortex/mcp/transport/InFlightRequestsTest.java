package dev.cortex.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Cancellation;
import dev.cortex.mcp.caller.CancelSignals;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class InFlightRequestsTest {
  final InFlightRequests requests = new InFlightRequests();

  @Test
  void cancel_requestInFlight_marksItCancelledUntilFinished() {
    requests.start(7, "tools/call", null);

    assertThat(requests.cancel(7)).isTrue();
    assertThat(requests.isCancelled(7)).isTrue();
    assertThat(requests.finish(7)).isTrue();
    assertThat(requests.isCancelled(7)).isFalse();
    assertThat(requests.isEmpty()).isTrue();
  }

  @Test
  void cancel_requestInFlight_tripsTheCancellationItsWorkHolds() {
    requests.start(7, "tools/call", null);
    Cancellation heard = requests.cancellation(7L);
    AtomicInteger told = new AtomicInteger();
    heard.onCancel(told::incrementAndGet);

    requests.cancel(7);
    requests.cancel(7.0);

    assertThat(heard.isCancelled()).isTrue();
    assertThat(told).as("the work's action ran once").hasValue(1);
  }

  @Test
  void cancellation_ofRequestNotInFlightOrInitialize_isNone() {
    requests.start(0, "initialize", null);
    requests.start(1, "tools/call", null);
    requests.finish(1);

    assertThat(requests.cancellation(0)).isSameAs(Cancellation.NONE);
    assertThat(requests.cancellation(1)).isSameAs(Cancellation.NONE);
    assertThat(requests.cancellation(null)).isSameAs(Cancellation.NONE);
  }

  @Test
  void cancellation_afterTheRequestFinished_staysAsItWas() {
    requests.start(3, "tools/call", null);
    Cancellation heard = requests.cancellation(3);
    requests.finish(3);
    requests.start(3, "tools/call", null);

    requests.cancel(3);

    assertThat(heard.isCancelled()).as("a later request with the same id").isFalse();
  }

  @Test
  void markCall_copiesTheIdIntoMeta_keepingWhatWasThere() {
    Map<String, Object> meta = new HashMap<>(Map.of("progressToken", "p"));
    Inbound.Message call = call(9, new HashMap<>(Map.of("name", "slow", "_meta", meta)));

    assertThat(InFlightRequests.markCall(call)).isTrue();

    assertThat(call.params())
        .isEqualTo(
            Map.of(
                "name", "slow", "_meta", Map.of("progressToken", "p", CancelSignals.META_KEY, 9)));
  }

  @Test
  void markCall_metaThatIsNoObject_leavesTheCallAlone() {
    Inbound.Message call = call("a", new HashMap<>(Map.of("name", "slow", "_meta", List.of())));

    assertThat(InFlightRequests.markCall(call)).isFalse();
    assertThat(call.params()).isEqualTo(Map.of("name", "slow", "_meta", List.of()));
  }

  private static Inbound.Message call(Object id, Map<String, Object> params) {
    Map<String, Object> fields = new HashMap<>();
    fields.put("jsonrpc", "2.0");
    fields.put("id", id);
    fields.put("method", "tools/call");
    fields.put("params", params);
    return (Inbound.Message) Inbound.check(fields);
  }

  @Test
  void cancel_unknownOrFinishedId_isIgnored() {
    requests.start(1, "tools/call", null);
    requests.finish(1);

    assertThat(requests.cancel(1)).isFalse();
    assertThat(requests.cancel(2)).isFalse();
    assertThat(requests.cancel(null)).isFalse();
    assertThat(requests.cancel(true)).isFalse();
    assertThat(requests.isCancelled(1)).isFalse();
  }

  @Test
  void cancel_initialize_isRefused() {
    requests.start(0, "initialize", null);

    assertThat(requests.cancel(0)).isFalse();
    assertThat(requests.isCancelled(0)).isFalse();
  }

  @Test
  void cancel_otherRequests_leavesThemAlone() {
    requests.start(1, "tools/call", null);
    requests.start(2, "tools/call", null);

    requests.cancel(1);

    assertThat(requests.isCancelled(2)).isFalse();
    assertThat(requests.size()).isEqualTo(2);
  }

  @Test
  void ids_matchByJsonValue_numbersAcrossTypes_stringsApart() {
    requests.start(5, "ping", null);
    requests.start("5", "ping", null);

    assertThat(requests.cancel(5L)).isTrue();

    assertThat(requests.isCancelled(5.0)).isTrue();
    assertThat(requests.isCancelled("5")).isFalse();
  }

  @Test
  void isProgressOfCancelled_followsTheRequestOfTheToken() {
    requests.start(1, "tools/call", "tok-1");
    requests.start(2, "tools/call", 42);

    requests.cancel(1);

    assertThat(requests.isProgressOfCancelled("tok-1")).isTrue();
    assertThat(requests.isProgressOfCancelled(42)).isFalse();
    assertThat(requests.isProgressOfCancelled("unknown")).isFalse();
    assertThat(requests.isProgressOfCancelled(null)).isFalse();
    requests.finish(1);
    assertThat(requests.isProgressOfCancelled("tok-1")).isFalse();
  }

  @Test
  void awaitEmpty_returnsOnceTheLastRequestFinishes() throws Exception {
    requests.start(1, "tools/call", null);
    assertThat(requests.awaitEmpty(1_000_000)).isFalse();

    Thread finisher = new Thread(() -> requests.finish(1));
    finisher.start();

    assertThat(requests.awaitEmpty(60_000_000_000L)).isTrue();
    finisher.join();
  }
}
