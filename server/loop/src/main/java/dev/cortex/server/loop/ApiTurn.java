package dev.cortex.server.loop;

import dev.cortex.base.CancellationSignal;
import dev.cortex.base.Json;
import dev.cortex.models.ChatMessage;
import dev.cortex.models.ChatPart;
import dev.cortex.models.ChatRequest;
import dev.cortex.models.ModelCalls;
import dev.cortex.models.ModelCatalog;
import dev.cortex.models.ModelFailure;
import dev.cortex.models.ModelSpec;
import dev.cortex.models.Reply;
import dev.cortex.models.Thinking;
import dev.cortex.models.ToolDefinition;
import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.backend.BackendEvent;
import dev.cortex.server.sessions.backend.RunningTurn;
import dev.cortex.server.sessions.backend.TurnRequest;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One turn of an {@code api} session: the model is asked, the tools it calls are run against the
 * session's MCP server in this process and their outputs go back to it, until it answers without a
 * tool call. Messages sent meanwhile join the conversation between two model calls. A stop trips
 * the turn's cancellation, which ends the model's stream and the tool call in flight.
 *
 * <p>Each message is acknowledged only once the conversation that holds it is on disk: a server
 * that dies in between offers the message again, and the conversation, remembering it took it,
 * acknowledges it without hearing it twice.
 */
final class ApiTurn implements RunningTurn {
  private static final Logger log = LoggerFactory.getLogger(ApiTurn.class);

  /** The most model calls of one turn: a loop that never ends its turn is stopped. */
  static final int MAX_STEPS = 200;

  private final TurnRequest request;
  private final Backend.TurnEvents events;
  private final ModelCalls calls;
  private final ModelCatalog catalog;
  private final ModelSpec model;
  private final Thinking thinking;
  private final String system;
  private final Conversations conversations;
  private final Supplier<ToolSession> tools;
  private final String key;
  private final CancellationSignal cancellation = new CancellationSignal();
  private final CountDownLatch ended = new CountDownLatch(1);
  private final Deque<TurnRequest.Message> injected = new ArrayDeque<>();
  private boolean ending;
  private volatile BackendEvent.End end;

  ApiTurn(
      TurnRequest request,
      Backend.TurnEvents events,
      ModelCalls calls,
      ModelCatalog catalog,
      ModelSpec model,
      Thinking thinking,
      String system,
      Conversations conversations,
      Supplier<ToolSession> tools,
      String key) {
    this.request = request;
    this.events = events;
    this.calls = calls;
    this.catalog = catalog;
    this.model = model;
    this.thinking = thinking;
    this.system = system;
    this.conversations = conversations;
    this.tools = tools;
    this.key = key;
  }

  void start() {
    Thread thread = new Thread(this::run, "cortex-api-" + request.sessionId());
    thread.setDaemon(true);
    thread.start();
  }

  @Override
  public boolean inject(String id, String text) {
    synchronized (injected) {
      if (ending) {
        return false;
      }
      injected.add(new TurnRequest.Message(id, text));
      return true;
    }
  }

  @Override
  public void stop() {
    cancellation.cancel();
  }

  @Override
  public Optional<BackendEvent.End> await(Duration limit) throws InterruptedException {
    return ended.await(limit.toMillis(), TimeUnit.MILLISECONDS)
        ? Optional.of(end)
        : Optional.empty();
  }

  private void run() {
    BackendEvent.End outcome;
    ToolSession session = null;
    try {
      events.event(new BackendEvent.Handshake(true));
      Conversations.Loaded loaded = conversations.load(request.resume());
      Conversation conversation = loaded.conversation();
      if (loaded.lost()) {
        events.event(
            new BackendEvent.Note(
                "The earlier conversation of this session is gone; the model starts afresh."));
      }
      events.event(new BackendEvent.Started(conversation.id()));
      take(conversation, request.messages());
      session = tools.get();
      outcome = loop(conversation, session);
    } catch (InterruptedException e) {
      outcome = BackendEvent.End.stopped();
    } catch (ModelFailure e) {
      outcome =
          cancellation.isCancelled()
              ? BackendEvent.End.stopped()
              : BackendEvent.End.failed(scrub(say(e)));
    } catch (IllegalArgumentException e) {
      // The session's MCP server could not be composed: the sentence says why.
      outcome = BackendEvent.End.failed(e.getMessage());
    } catch (RuntimeException e) {
      log.warn("a turn of {} failed", request.sessionId(), e);
      outcome =
          cancellation.isCancelled()
              ? BackendEvent.End.stopped()
              : BackendEvent.End.failed(
                  "The agent loop failed unexpectedly; the server log says why.");
    } finally {
      synchronized (injected) {
        ending = true;
      }
      if (session != null) {
        session.close();
      }
    }
    if (cancellation.isCancelled() && outcome.status() != BackendEvent.Status.STOPPED) {
      outcome = BackendEvent.End.stopped();
    }
    end = outcome;
    events.event(outcome);
    ended.countDown();
  }

  private BackendEvent.End loop(Conversation conversation, ToolSession session)
      throws ModelFailure, InterruptedException {
    List<ToolDefinition> offered = session.tools();
    String last = "";
    for (int step = 0; step < MAX_STEPS; step++) {
      checkStopped();
      takeInjected(conversation);
      if (!conversation.awaitsAnswer()) {
        synchronized (injected) {
          if (injected.isEmpty()) {
            ending = true;
            return BackendEvent.End.completed(last);
          }
        }
        continue;
      }
      fit(conversation, offered);
      Reply reply = ask(conversation.messages(), offered, true);
      if (!reply.parts().isEmpty()) {
        conversation.assistant(reply.parts());
        conversations.save(conversation);
      }
      List<ChatPart.ToolCall> toolCalls = reply.toolCalls();
      if (toolCalls.isEmpty()) {
        last = reply.text();
        if (reply.stop() == Reply.Stop.MAX_TOKENS) {
          events.event(
              new BackendEvent.Note("The answer reached the model's output limit and was cut."));
        }
        if (reply.parts().isEmpty()) {
          // Nothing to answer to: a message that arrives later starts the next call.
          synchronized (injected) {
            if (injected.isEmpty()) {
              ending = true;
              return BackendEvent.End.completed(last);
            }
          }
        }
        continue;
      }
      List<ChatPart> outputs = new ArrayList<>();
      for (ChatPart.ToolCall call : toolCalls) {
        checkStopped();
        events.event(new BackendEvent.ToolUse(call.id(), call.name(), Json.write(call.input())));
        ToolSession.Answer answer = session.call(call.name(), call.input(), cancellation);
        events.event(new BackendEvent.ToolResult(call.id(), answer.text(), answer.error()));
        outputs.add(new ChatPart.ToolOutput(call.id(), answer.text(), answer.error()));
      }
      conversation.user(outputs, null);
      conversations.save(conversation);
    }
    return BackendEvent.End.failed(
        "The model called tools "
            + MAX_STEPS
            + " times without ending its turn; the turn was ended. Send a message to go on.");
  }

  /** One model call, its text streamed into the transcript and its cost recorded. */
  private Reply ask(List<ChatMessage> messages, List<ToolDefinition> offered, boolean shown)
      throws ModelFailure, InterruptedException {
    ParagraphStream stream = new ParagraphStream(events);
    ChatRequest chat =
        new ChatRequest(
            model.name(), system, messages, offered, model.maxOutputTokens(), null, thinking);
    ModelCalls.Answer answer =
        calls.call(
            model.name(),
            chat,
            shown ? stream : dev.cortex.models.StreamListener.NONE,
            notes(),
            cancellation);
    if (shown) {
      stream.finish();
    }
    Reply reply = answer.reply();
    BigDecimal usd = catalog.usd(answer.model(), reply.usage()).orElse(null);
    events.event(
        new BackendEvent.Cost(
            answer.model().name(),
            reply.usage().input(),
            reply.usage().output(),
            reply.usage().cacheRead(),
            reply.usage().cacheWrite(),
            usd == null ? null : usd.doubleValue(),
            "api"));
    return reply;
  }

  /** Shortens, then summarises, a conversation that outgrew the model's context. */
  private void fit(Conversation conversation, List<ToolDefinition> offered)
      throws ModelFailure, InterruptedException {
    long limit = ContextWindow.limit(model.contextTokens(), model.maxOutputTokens());
    if (ContextWindow.estimate(system, conversation.messages(), offered) <= limit) {
      return;
    }
    ContextWindow.Shortened shortened = ContextWindow.shortenOutputs(conversation.messages());
    if (shortened.cut() > 0) {
      conversation.replace(shortened.messages());
      conversations.save(conversation);
      events.event(
          new BackendEvent.Note(
              String.format(
                  Locale.ROOT,
                  "The conversation neared the model's context window: older tool outputs were"
                      + " shortened (%,d characters cut).",
                  shortened.cut())));
      if (ContextWindow.estimate(system, conversation.messages(), offered) <= limit) {
        return;
      }
    }
    List<ChatMessage> messages = conversation.messages();
    int cut = ContextWindow.summaryCut(messages);
    if (cut == 0) {
      return; // nothing older to summarise: the model's own limit decides
    }
    List<ChatMessage> older = new ArrayList<>(messages.subList(0, cut));
    older.add(ChatMessage.user(ContextWindow.SUMMARY_REQUEST));
    Reply summary = ask(older, offered, false);
    String text = summary.text().strip();
    if (text.isEmpty()) {
      return;
    }
    conversation.replace(ContextWindow.summarised(messages, cut, text));
    conversations.save(conversation);
    events.event(
        new BackendEvent.Note(
            "The conversation outgrew the model's context window: its first "
                + cut
                + " messages were replaced by the model's summary of them."));
  }

  private void take(Conversation conversation, List<TurnRequest.Message> messages) {
    List<String> ids = new ArrayList<>();
    for (TurnRequest.Message message : messages) {
      if (!conversation.took(message.id())) {
        conversation.user(List.of(new ChatPart.Text(message.text())), message.id());
      }
      ids.add(message.id());
    }
    conversations.save(conversation);
    ids.forEach(id -> events.event(new BackendEvent.Acked(id)));
  }

  private void takeInjected(Conversation conversation) {
    List<TurnRequest.Message> taken = new ArrayList<>();
    synchronized (injected) {
      taken.addAll(injected);
      injected.clear();
    }
    if (!taken.isEmpty()) {
      take(conversation, taken);
    }
  }

  private void checkStopped() throws InterruptedException {
    if (cancellation.isCancelled()) {
      throw new InterruptedException("the turn was stopped");
    }
  }

  private ModelCalls.Events notes() {
    return new ModelCalls.Events() {
      @Override
      public void retrying(
          ModelSpec spec, ModelFailure failure, int attempt, int attempts, Duration wait) {
        events.event(
            new BackendEvent.Note(
                String.format(
                    Locale.ROOT,
                    "%s: %s Retrying in %.1f s (attempt %d of %d).",
                    spec.name(),
                    scrub(failure.getMessage()),
                    wait.toMillis() / 1000.0,
                    attempt,
                    attempts)));
      }

      @Override
      public void fallingBack(ModelSpec from, ModelSpec to, ModelFailure failure) {
        events.event(
            new BackendEvent.Note(
                from.name()
                    + " stays unavailable ("
                    + scrub(failure.getMessage())
                    + "); asking "
                    + to.name()
                    + " instead."));
      }
    };
  }

  /** {@code text} without the API key, should a provider have echoed it. */
  String scrub(String text) {
    return key == null || key.length() < 8 || text == null ? text : text.replace(key, "[the key]");
  }

  /** A failure as the transcript says it. */
  static String say(ModelFailure failure) {
    return switch (failure.kind()) {
      case MISSING_KEY, AUTH -> failure.getMessage();
      case CONTEXT_TOO_LONG ->
          "The conversation no longer fits the model's context window: " + failure.getMessage();
      default -> "The model could not be asked: " + failure.getMessage();
    };
  }
}
