package dev.cortex.protocol.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cortex.protocol.WireJson;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.PropertyNamingStrategies;
import tools.jackson.databind.json.JsonMapper;

class SessionsTest {
  /** How the server's plain answers are written: snake_case, nothing left out. */
  static final JsonMapper ANSWERS =
      JsonMapper.builder().propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE).build();

  static final Sessions.View VIEW =
      new Sessions.View(
          "ses-0123456789abcdef",
          "a1",
          "cli:a1",
          null,
          "command",
          null,
          null,
          null,
          "default",
          "direct",
          "person",
          null,
          "/work",
          "idle",
          null,
          null,
          false,
          "2025-01-02T03:04:05Z",
          "2025-01-02T03:04:06Z");

  static final String VIEW_JSON =
      "{\"id\":\"ses-0123456789abcdef\",\"name\":\"a1\",\"channel\":\"cli:a1\",\"project\":null,"
          + "\"backend\":\"command\",\"model\":null,\"provider\":null,\"thinking\":null,\"mode\":\"default\",\"composition\":\"direct\","
          + "\"started_by\":\"person\",\"tool_allowlist\":null,\"working_dir\":\"/work\","
          + "\"state\":\"idle\",\"running_execution\":null,"
          + "\"waiting_for\":null,\"planning\":false,\"created_at\":\"2025-01-02T03:04:05Z\","
          + "\"updated_at\":\"2025-01-02T03:04:06Z\"}";

  static Sessions.Entry entry() {
    return new Sessions.Entry(
        3,
        null,
        "tool_use",
        WireJson.mapper().readTree("{\"id\":\"t1\",\"input\":{\"n\":1.0}}"),
        "2025-01-02T03:04:05Z");
  }

  static final String ENTRY_JSON =
      "{\"seq\":3,\"execution_id\":null,\"kind\":\"tool_use\","
          + "\"body\":{\"id\":\"t1\",\"input\":{\"n\":1.0}},\"at\":\"2025-01-02T03:04:05Z\"}";

  @Test
  void view_writtenByEitherMapper_keepsItsNullsAndItsOrder() {
    assertThat(ANSWERS.writeValueAsString(VIEW)).isEqualTo(VIEW_JSON);
    assertThat(WireJson.mapper().writeValueAsString(VIEW)).isEqualTo(VIEW_JSON);
    assertThat(WireJson.mapper().readValue(VIEW_JSON, Sessions.View.class)).isEqualTo(VIEW);
  }

  @Test
  void answers_writeTheirFieldsInTheirOrder_nullsIncluded() {
    assertThat(WireJson.mapper().writeValueAsString(new Sessions.Delivery("queued", null, 2)))
        .isEqualTo("{\"status\":\"queued\",\"execution_id\":null,\"inbox_seq\":2}");
    assertThat(
            WireJson.mapper().writeValueAsString(new Sessions.TurnEnd("ex-1", "completed", null)))
        .isEqualTo("{\"execution_id\":\"ex-1\",\"status\":\"completed\",\"error\":null}");
    assertThat(WireJson.mapper().writeValueAsString(new Sessions.Progress(true, null, 5, 4, 0)))
        .isEqualTo(
            "{\"queued\":true,\"execution_id\":null,\"elapsed_seconds\":5,\"quiet_seconds\":4,"
                + "\"tool_calls\":0}");
    assertThat(ANSWERS.writeValueAsString(new Sessions.Stopped(true)))
        .isEqualTo("{\"stopped\":true}");
    assertThat(ANSWERS.writeValueAsString(new Sessions.Entries(List.of(entry()))))
        .isEqualTo("{\"entries\":[" + ENTRY_JSON + "]}");
    assertThat(ANSWERS.writeValueAsString(new Sessions.Listed(List.of(VIEW))))
        .isEqualTo("{\"sessions\":[" + VIEW_JSON + "]}");
  }

  @Test
  void events_areTaggedByEvent_andReadBack() {
    String line = WireJson.mapper().writeValueAsString(new SessionEvent.Recorded(entry()));

    assertThat(line).isEqualTo("{\"event\":\"entry\",\"entry\":" + ENTRY_JSON + "}");
    assertThat(SessionEvent.read(WireJson.mapper().readTree(line)))
        .isEqualTo(new SessionEvent.Recorded(entry()));
    SessionEvent delivered =
        new SessionEvent.Delivered(new Sessions.Delivery("started", "ex-1", 1));
    assertThat(SessionEvent.read(WireJson.tree(delivered))).isEqualTo(delivered);
    SessionEvent progressed =
        new SessionEvent.Progressed(new Sessions.Progress(false, "ex-1", 30, 15, 2));
    assertThat(WireJson.mapper().writeValueAsString(progressed))
        .startsWith("{\"event\":\"progress\",\"progress\":{\"queued\":false,");
    assertThat(SessionEvent.read(WireJson.tree(progressed))).isEqualTo(progressed);
  }

  @Test
  void read_unknownOrMalformedEvents_areSkipped() {
    for (String line :
        List.of(
            "{\"event\":\"later\",\"later\":{}}",
            "{\"event\":\"entry\"}",
            "{\"event\":7}",
            "{\"result\":{}}",
            "[]")) {
      assertThat(SessionEvent.read(WireJson.mapper().readTree(line))).as(line).isNull();
    }
  }

  @Test
  void requests_bindSnakeCase_andIgnoreUnknownFields() {
    Sessions.Create create =
        WireJson.mapper()
            .readValue(
                "{\"name\":\"u1\",\"surprise\":1,\"composition\":\" NONE \","
                    + "\"started_by\":\"Agent\",\"working_dir\":\"/w\","
                    + "\"tool_allowlist\":[\"current_time\",null]}",
                Sessions.Create.class);

    assertThat(create.name()).isEqualTo("u1");
    assertThat(create.composition()).isEqualTo("none");
    assertThat(create.startedBy()).isEqualTo("agent");
    assertThat(create.workingDir()).isEqualTo("/w");
    assertThat(create.toolAllowlist()).isEqualTo(Arrays.asList("current_time", null));
    Sessions.Send send =
        WireJson.mapper()
            .readValue(
                "{\"session\":\"a\",\"text\":\"hi\",\"progress_seconds\":0}", Sessions.Send.class);
    assertThat(send.following()).isFalse();
    assertThat(send.progressOrDefault()).isZero();
    assertThat(new Sessions.Send("a", "hi", true, null).progressOrDefault())
        .isEqualTo(Sessions.PROGRESS_SECONDS);
    assertThat(new Sessions.Page("a", null, null).limitOrDefault())
        .isEqualTo(Sessions.DEFAULT_PAGE);
    assertThat(new Sessions.Listing(null).limitOrDefault()).isEqualTo(Sessions.DEFAULT_LIST);
  }

  @Test
  void requests_thatBreakARule_cannotBeBuilt_andSayWhichRule() {
    Map<Runnable, String> broken =
        Map.of(
            () -> new Sessions.Listing(0), "limit must be 1 to 200.",
            () -> new Sessions.Listing(201), "limit must be 1 to 200.",
            () -> new Sessions.Ref(null), "Send {\"session\": ID or NAME}.",
            () -> new Sessions.Page("a", -1L, null), "limit must be 1 to 500 and after 0 or more.",
            () -> new Sessions.Page("a", null, 501), "limit must be 1 to 500 and after 0 or more.",
            () -> new Sessions.Page(null, null, null),
                "Send {\"session\": ID or NAME, \"after\"?: SEQ or \"before\"?: SEQ, \"limit\"?: N}.",
            () -> new Sessions.Send("a", null, null, null),
                "Send {\"session\": ID or NAME, \"text\": MESSAGE, \"follow\"?: true,"
                    + " \"progress_seconds\"?: 0-600}.",
            () -> new Sessions.Send("a", "x", true, 601),
                "progress_seconds must be from 0 (no progress lines) to 600, not 601.",
            () -> create("partial", null),
                "composition is direct or none; started_by is person, agent, schedule or"
                    + " callback.",
            () -> create(null, "robot"),
                "composition is direct or none; started_by is person, agent, schedule or"
                    + " callback.");
    broken.forEach(
        (build, message) ->
            assertThatThrownBy(build::run)
                .isInstanceOf(Sessions.BadRequest.class)
                .hasMessage(message));
    for (Runnable build :
        List.<Runnable>of(
            () -> new Sessions.Page("a", null, 0L, null),
            () -> new Sessions.Page("a", 3L, 9L, null))) {
      assertThatThrownBy(build::run)
          .isInstanceOf(Sessions.BadRequest.class)
          .hasMessage("before must be 1 or more, and comes without after.");
    }
  }

  static Sessions.Create create(String composition, String startedBy) {
    return new Sessions.Create(
        null, null, null, null, null, null, null, composition, startedBy, null, null, null);
  }

  @Test
  void bind_brokenRule_carriesTheBadRequestAsItsCause() {
    assertThatThrownBy(() -> WireJson.mapper().readValue("{\"limit\":0}", Sessions.Listing.class))
        .isInstanceOf(JacksonException.class)
        .rootCause()
        .isInstanceOf(Sessions.BadRequest.class)
        .hasMessage("limit must be 1 to 200.");
  }

  @Test
  void routes_liveUnderOnePrefix() {
    assertThat(Sessions.ROUTES)
        .allSatisfy(route -> assertThat(route).startsWith(Sessions.PREFIX))
        .extracting(route -> route.substring(Sessions.PREFIX.length()))
        .containsExactly("create", "list", "show", "send", "stop", "transcript");
  }
}
