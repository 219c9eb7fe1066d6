package dev.cortex.server.sessions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.CortexHome;
import dev.cortex.models.ModelPrices;
import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.backend.ClaudeBackend;
import dev.cortex.server.sessions.backend.CommandBackend;
import dev.cortex.server.sessions.store.Costs;
import dev.cortex.server.sessions.store.Executions;
import dev.cortex.server.sessions.store.Session;
import dev.cortex.server.sessions.store.SessionStore;
import dev.cortex.server.sessions.store.SessionsSchema;
import dev.cortex.server.sessions.store.Transcript;
import dev.cortex.storage.Database;
import dev.cortex.testing.MovableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sessions' turns with the real {@code command} backend: small shell programs as agents, the
 * store in a real SQLite file, and a clock the tests move (max_turn is checked against it at each
 * {@link SessionService#sweep}, never waited out).
 */
abstract class WithService {
  static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;
  Database database;
  MovableClock clock = new MovableClock(Instant.parse("2026-12-01T10:00:00Z"));
  SessionService sessions;
  Executions executions;
  SessionStore store;
  Path work;

  Path home;

  /** The budgets the service reads, as the live settings would give them. */
  volatile Budgets budgets = Budgets.NONE;

  /** A clock that stands still until a test moves it. */
  @BeforeEach
  void start() throws IOException {
    home = Files.createDirectories(dir.resolve("home"));
    work = Files.createDirectories(dir.resolve("work"));
    database = new Database(home, List.of(SessionsSchema.area()), Clock.systemUTC());
    store = new SessionStore(() -> database, clock);
    executions = new Executions(() -> database, clock);
    sessions = service(new AckWaits(SessionService.MAX_ACK_WAITS, SessionService.ACK_WAIT));
  }

  /** A service of the test's store whose sends wait for acknowledgements as {@code ackWaits}. */
  SessionService service(AckWaits ackWaits) {
    return service(ackWaits, new CommandBackend());
  }

  /** A service of the test's store whose {@code command} sessions run on {@code command}. */
  SessionService service(AckWaits ackWaits, Backend command) {
    Map<String, Backend> backends = new LinkedHashMap<>();
    backends.put(CommandBackend.NAME, command);
    CortexHome cortexHome = new CortexHome(home, home.resolve("data"));
    // A sandbox, as far as the root check goes: these tests may run as root.
    backends.put(
        ClaudeBackend.NAME,
        new ClaudeBackend(cortexHome, Map.of("CORTEX_CLAUDE_SANDBOX", "1"), groups -> Set.of()));
    return new SessionService(
        store,
        executions,
        new Costs(() -> database, clock),
        backends,
        new SessionEnvironment(
            cortexHome, Map.of("PATH", System.getenv("PATH")), "token", () -> 3001),
        () -> budgets,
        new SessionSettings("command", null, Duration.ofMinutes(1)),
        ModelPrices.shipped(),
        clock,
        AllowlistCheck.NONE,
        ackWaits);
  }

  @AfterEach
  void stop() {
    sessions.close();
    database.close();
  }

  /**
   * A program that reads its prompt, closes its input (it takes nothing more in), says {@code
   * holding} and ends once the file {@code release} appears in the work folder.
   */
  static String holding(String release) {
    return """
        read -r line
        exec 0<&-
        echo '{"type":"text","text":"holding"}'
        while [ ! -e "$dir/%s" ]; do sleep 0.05; done
        echo '{"type":"end","status":"completed","result":"held"}'
        """
        .formatted(release);
  }

  /** A session whose turns run {@code script} (a POSIX shell program). */
  Session session(String name, String script) throws Exception {
    Path program = work.resolve(name + ".sh");
    Files.writeString(program, "#!/bin/sh\ndir=$(dirname \"$0\")\n" + script);
    assertThat(program.toFile().setExecutable(true)).isTrue();
    return sessions.create(
        new SessionService.NewSession(
            name,
            null,
            null,
            "command",
            null,
            null,
            null,
            null,
            null,
            List.of(program.toString()),
            work,
            null));
  }

  /** The live events of a session, from now on. */
  BlockingQueue<SessionService.Update> follow(Session session) throws SessionException {
    BlockingQueue<SessionService.Update> updates = new LinkedBlockingQueue<>();
    sessions.follow(session.id(), updates::add);
    return updates;
  }

  /** Waits (on the events, with a deadline) for the first update that matches. */
  static <T extends SessionService.Update> T await(
      BlockingQueue<SessionService.Update> updates, Class<T> type, String what)
      throws InterruptedException {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (System.nanoTime() < deadline) {
      SessionService.Update update = updates.poll(100, TimeUnit.MILLISECONDS);
      if (type.isInstance(update)) {
        return type.cast(update);
      }
    }
    throw new AssertionError("no " + what + " within " + LIMIT);
  }

  /** Waits for the end of the turn {@code executionId}. */
  static SessionService.Update.TurnEnded awaitEnd(
      BlockingQueue<SessionService.Update> updates, String executionId)
      throws InterruptedException {
    while (true) {
      SessionService.Update.TurnEnded end =
          await(updates, SessionService.Update.TurnEnded.class, "the end of " + executionId);
      if (end.executionId().equals(executionId)) {
        return end;
      }
    }
  }

  static SessionService.Update.Entry awaitSaid(
      BlockingQueue<SessionService.Update> updates, String text) throws InterruptedException {
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (updates.poll(100, TimeUnit.MILLISECONDS) instanceof SessionService.Update.Entry entry
          && entry.entry().kind() == Transcript.Kind.ASSISTANT
          && entry.entry().body().equals(Transcript.text(text))) {
        return entry;
      }
    }
    throw new AssertionError("the agent did not say '" + text + "' within " + LIMIT);
  }

  List<String> bodies(Session session) throws SessionException {
    return sessions.transcript(session.id(), 0, 100).stream().map(Transcript.Entry::body).toList();
  }

  static final String WORKING =
      """
      read -r line
      sleep 600 &
      echo '{"type":"text","text":"working"}'
      wait
      echo '{"type":"end","status":"completed","result":"woke up"}'
      """;

  /** The id of the inject line in the shell variable {@code $more}, into {@code $id}. */
  static final String INJECTED_ID =
      "id=$(printf '%s' \"$more\" | sed 's/.*\"id\":\"\\([^\"]*\\)\".*/\\1/')\n";

  static final String HELLO =
      """
      echo '{"type":"hello","protocol":2,"capabilities":["ack"]}'
      """;
}
