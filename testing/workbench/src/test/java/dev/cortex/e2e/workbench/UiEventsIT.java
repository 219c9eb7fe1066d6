package dev.cortex.e2e.workbench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.Eventually;
import dev.cortex.testing.ScriptedAgent;
import dev.cortex.testing.SessionApi;
import dev.cortex.testing.TestJson;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The workbench's event stream against a real server and scripted sessions: events arrive,
 * reconnecting with Last-Event-ID loses none, ids continue across a restart, and session events
 * tell of a session's creation and of its waits for a person.
 */
class UiEventsIT {
  @TempDir Path home;
  @TempDir Path work;

  /** One event as read off the stream. */
  record Event(long id, String type, String data) {}

  @Test
  void events_replayAfterLastEventId_loseNone_andIdsContinueAfterARestart() throws Exception {
    AgentServer server = new AgentServer(home, Map.of()).start();
    long lastBeforeRestart;
    try (SessionApi api = new SessionApi(server)) {
      UiClient ui = new UiClient(server);
      UiClient.Browser browser = ui.signIn();
      String id =
          api.create(ScriptedAgent.command(), work, Map.of("name", "ev")).path("id").asString();
      for (int i = 0; i < 5; i++) {
        api.send(id, "message " + i);
        api.awaitIdle(id);
      }
      List<Event> all = read(ui, browser, 0, id, Integer.MAX_VALUE, true);
      assertThat(all).isNotEmpty();
      assertThat(all).extracting(Event::type).contains("entry", "turn");
      assertThat(all.stream().filter(e -> e.type().equals("entry")).map(Event::data))
          .anyMatch(d -> d.contains("message 3"));
      for (int i = 1; i < all.size(); i++) {
        assertThat(all.get(i).id()).isGreaterThan(all.get(i - 1).id());
      }

      // Reconnect after every few events: together the pieces are the whole.
      List<Event> pieces = new ArrayList<>();
      long last = 0;
      for (int round = 0; round < 60 && pieces.size() < all.size(); round++) {
        List<Event> piece = read(ui, browser, last, id, 1 + round % 3, true);
        pieces.addAll(piece);
        last = piece.get(piece.size() - 1).id();
      }
      assertThat(pieces).isEqualTo(all);
      lastBeforeRestart = all.get(all.size() - 1).id();

      server.stop();
      server.start();
      UiClient again = new UiClient(server);
      UiClient.Browser browser2 = again.signIn();
      try (SessionApi api2 = new SessionApi(server)) {
        api2.send(id, "after the restart");
        api2.awaitIdle(id);
      }
      List<Event> after = read(again, browser2, lastBeforeRestart, id, 1, true);
      assertThat(after.get(0).id()).isGreaterThan(lastBeforeRestart);
    } finally {
      server.close();
    }
  }

  @Test
  void sessionEvents_tellOfTheCreation_andOfTheWaitForAQuestionAndItsEnd() throws Exception {
    // A web session: a person in the workbench can be asked.
    try (Workbench workbench = Workbench.start(home, work)) {
      SessionApi api = workbench.api;
      UiClient ui = new UiClient(workbench.server);
      UiClient.Browser browser = ui.signIn();
      String id = workbench.session("asks");
      Map<String, Object> ask =
          Workbench.call(
              "cortex_ask_user",
              Map.of(
                  "questions",
                  List.of(
                      Map.of(
                          "question",
                          "Which one?",
                          "options",
                          List.of(Map.of("label", "a"), Map.of("label", "b"))))));
      api.send(id, Workbench.script(Map.of("calls", List.of(ask))));
      AtomicReference<String> request = new AtomicReference<>();
      Eventually.until(
          "the question is open",
          () -> {
            JsonNode listed =
                TestJson.JSON.readTree(
                    ui.post("/api/interactions/list", browser, "{\"session\": \"" + id + "\"}")
                        .body());
            JsonNode open = listed.path("result").path("interactions").path(0);
            request.set(open.isMissingNode() ? null : open.path("id").asString());
            return request.get() != null;
          });
      HttpResponse<String> answered =
          ui.post(
              "/api/interactions/answer",
              browser,
              "{\"id\": \"" + request.get() + "\", \"answers\": [{\"selected\": [\"a\"]}]}");
      assertThat(answered.statusCode()).as(answered.body()).isEqualTo(200);
      api.awaitIdle(id);

      List<JsonNode> views =
          read(ui, browser, 0, id, Integer.MAX_VALUE, true).stream()
              .filter(e -> e.type().equals("session"))
              .map(e -> TestJson.JSON.readTree(e.data()).path("view"))
              .toList();
      assertThat(views).isNotEmpty();
      assertThat(views.get(0).path("id").asString()).isEqualTo(id);
      assertThat(views.get(0).path("state").asString()).as("the created session").isEqualTo("idle");
      List<String> waits =
          views.stream()
              .map(v -> v.path("waiting_for"))
              .map(w -> w.isString() ? w.asString() : "")
              .toList();
      int asked = waits.indexOf("question");
      assertThat(asked).as("a view waiting for the question, in %s", waits).isPositive();
      assertThat(waits.subList(asked, waits.size())).as("the wait ends").contains("");
      assertThat(views.get(views.size() - 1).path("state").asString()).isEqualTo("idle");
    }
  }

  /**
   * Streams left open by closed tabs must not keep a new page from its events: beyond the cap the
   * oldest stream is ended, and its page, reconnecting with its last id, loses nothing.
   */
  @Test
  @org.junit.jupiter.api.Timeout(120)
  void streamsBeyondTheCap_endTheOldest_whichReconnectsAndLosesNothing() throws Exception {
    try (AgentServer server = new AgentServer(home, Map.of()).start();
        SessionApi api = new SessionApi(server)) {
      UiClient ui = new UiClient(server);
      UiClient.Browser browser = ui.signIn();
      String id =
          api.create(ScriptedAgent.command(), work, Map.of("name", "cap")).path("id").asString();
      List<BufferedReader> held = new ArrayList<>();
      try {
        for (int i = 0; i < 32; i++) {
          held.add(open(ui, browser, 0));
        }
        BufferedReader oldest = held.get(0);
        assertThat(oldest.readLine()).isEqualTo(": connected");
        BufferedReader newest = open(ui, browser, 0);
        held.add(newest);
        assertThat(newest.readLine()).isEqualTo(": connected");
        String line;
        List<String> rest = new ArrayList<>();
        while ((line = oldest.readLine()) != null) {
          rest.add(line);
        }
        assertThat(rest).as("the oldest stream went live, then was ended").contains(": live");
        api.send(id, "after the cap");
        api.awaitIdle(id);
        List<Event> caughtUp = read(ui, browser, 0, id, Integer.MAX_VALUE, true);
        assertThat(caughtUp.stream().map(Event::data)).anyMatch(d -> d.contains("after the cap"));
      } finally {
        for (BufferedReader stream : held) {
          stream.close();
        }
      }
    }
  }

  private static BufferedReader open(UiClient ui, UiClient.Browser browser, long after)
      throws Exception {
    HttpResponse<InputStream> answer =
        UiClient.HTTP.send(
            HttpRequest.newBuilder(URI.create(ui.origin + "/api/ui/events"))
                .header("Cookie", browser.header())
                .header("Last-Event-ID", Long.toString(after))
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    assertThat(answer.statusCode()).isEqualTo(200);
    return new BufferedReader(new InputStreamReader(answer.body(), StandardCharsets.UTF_8));
  }

  /**
   * Reads events of {@code session} after {@code after}: up to {@code count}, or (with {@code
   * replayOnly}) until the comment that ends the replay.
   */
  private static List<Event> read(
      UiClient ui,
      UiClient.Browser browser,
      long after,
      String session,
      int count,
      boolean replayOnly)
      throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(ui.origin + "/api/ui/events?session=" + session))
            .header("Cookie", browser.header())
            .header("Last-Event-ID", Long.toString(after))
            .build();
    HttpResponse<InputStream> answer =
        UiClient.HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(answer.statusCode()).isEqualTo(200);
    assertThat(answer.headers().firstValue("Content-Type").orElseThrow())
        .startsWith("text/event-stream");
    List<Event> events = new ArrayList<>();
    try (InputStream body = answer.body();
        BufferedReader lines =
            new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
      long id = -1;
      String type = null;
      String line;
      while (events.size() < count && (line = lines.readLine()) != null) {
        if (line.startsWith("id: ")) {
          id = Long.parseLong(line.substring(4));
        } else if (line.startsWith("event: ")) {
          type = line.substring(7);
        } else if (line.startsWith("data: ")) {
          events.add(new Event(id, type, line.substring(6)));
        } else if (replayOnly && line.equals(": live")) {
          break;
        }
      }
    }
    return events;
  }
}
