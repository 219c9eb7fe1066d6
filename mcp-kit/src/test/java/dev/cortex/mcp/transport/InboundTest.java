package dev.cortex.mcp.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Json;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The message checks every transport shares, the sessions' bookkeeping and SSE event ids. */
class InboundTest {
  private static Object check(String json) {
    return Inbound.check(Json.mapper().readValue(json, Object.class));
  }

  private static Inbound.Problem problem(String json) {
    Object checked = check(json);
    assertThat(checked).isInstanceOf(Inbound.Problem.class);
    return (Inbound.Problem) checked;
  }

  @Test
  void check_jsonRpcViolations_areInvalidRequestsWithAUsableIdOnly() {
    assertThat(problem("null").id()).isNull();
    assertThat(problem("{\"jsonrpc\":\"2.0\",\"method\":1}").code()).isEqualTo(-32600);
    assertThat(problem("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":1}").id()).isEqualTo(4);
    assertThat(problem("{\"jsonrpc\":\"1.0\",\"id\":\"a\",\"method\":\"ping\"}").id())
        .isEqualTo("a");
    assertThat(problem("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}").id()).isNull();
    assertThat(problem("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}").code())
        .isEqualTo(-32600);
    assertThat(problem("{\"jsonrpc\":\"2.0\",\"id\":2}").code()).isEqualTo(-32600);
    assertThat(problem("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{},\"error\":{}}").code())
        .isEqualTo(-32600);
    assertThat(problem("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":[]}").code())
        .isEqualTo(-32602);
  }

  @Test
  void check_wellFormedMessages_haveTheirKind() {
    assertThat(
            ((Inbound.Message) check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}")).kind())
        .isEqualTo(Inbound.Kind.REQUEST);
    assertThat(((Inbound.Message) check("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}")).kind())
        .isEqualTo(Inbound.Kind.NOTIFICATION);
    assertThat(((Inbound.Message) check("{\"jsonrpc\":\"2.0\",\"id\":\"r\",\"result\":{}}")).kind())
        .isEqualTo(Inbound.Kind.RESPONSE);
  }

  @Test
  void problem_mcpRefusals_beforeInitializeUnknownToolsAndCursors() {
    Inbound.Message list =
        (Inbound.Message) check("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
    Inbound.Message ping =
        (Inbound.Message) check("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}");
    Inbound.Message unknown =
        (Inbound.Message)
            check(
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}");
    Inbound.Message cursor =
        (Inbound.Message)
            check(
                "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"prompts/list\",\"params\":{\"cursor\":\"c\"}}");

    assertThat(Inbound.problem(list, false, List.of()).code()).isEqualTo(-32600);
    assertThat(Inbound.problem(ping, false, List.of())).isNull();
    assertThat(Inbound.problem(list, true, List.of())).isNull();
    assertThat(Inbound.problem(unknown, true, List.of("a", "b")).data())
        .containsEntry("code", "UNKNOWN_TOOL");
    assertThat(Inbound.problem(unknown, true, null)).isNull();
    assertThat(Inbound.problem(cursor, true, null).code()).isEqualTo(-32602);
  }

  /** A clock the test moves. */
  private static final class Manual extends Clock {
    Instant now = Instant.parse("2026-12-01T00:00:00Z");

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  @Test
  void sessions_expireWhenIdle_butNotWhileARequestRuns() {
    Manual clock = new Manual();
    HttpSessions sessions = new HttpSessions(new SessionLimits(Duration.ofSeconds(10), 5), clock);
    sessions.opened("idle");
    sessions.opened("busy");
    assertThat(sessions.begin("busy")).isTrue();

    clock.now = clock.now.plusSeconds(11);

    assertThat(sessions.takeExpired()).containsExactly("idle");
    assertThat(sessions.begin("idle")).isFalse();
    sessions.end("busy");
    assertThat(sessions.begin("busy")).isTrue();
  }

  @Test
  void sessions_atTheCap_giveUpTheLeastRecentlyUsedIdleOne() {
    Manual clock = new Manual();
    HttpSessions sessions = new HttpSessions(new SessionLimits(Duration.ofHours(1), 2), clock);
    sessions.opened("a");
    clock.now = clock.now.plusSeconds(1);
    sessions.opened("b");
    clock.now = clock.now.plusSeconds(1);
    sessions.begin("a");
    sessions.end("a");

    assertThat(sessions.makeRoom()).contains(Optional.of("b"));
    sessions.opened("c");
    sessions.begin("a");
    sessions.begin("c");
    assertThat(sessions.makeRoom()).as("every session busy").isEmpty();
  }

  @Test
  void renumber_givesEveryEventIdLineTheNextNumber() {
    AtomicLong ids = new AtomicLong();
    String events = "id: session-1\nevent: message\ndata: {\"a\":1}\n\nid: session-1\ndata: {}\n\n";

    assertThat(EventIds.renumber(events, ids))
        .isEqualTo("id: 1\nevent: message\ndata: {\"a\":1}\n\nid: 2\ndata: {}\n\n");
  }
}
