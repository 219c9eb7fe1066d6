package dev.cortex.server.channels;

import dev.cortex.protocol.session.Interactions;
import dev.cortex.server.sessions.SessionException;
import dev.cortex.server.sessions.SessionService;
import dev.cortex.server.sessions.store.Execution;
import dev.cortex.server.sessions.store.Session;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every chat platform's front door shares: the session of a platform channel (made on its
 * first message, one at a time), the ended turns of those sessions as replies to post, one posting
 * thread with a bounded queue, and a person's clicks on a card as answers to a question or a plan.
 */
public final class FrontDoor implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(FrontDoor.class);

  /** How new sessions are made, besides their name and channel. */
  public interface NewSessions {
    Session create(String name, String channel) throws SessionException;
  }

  /** The agent server's questions and plans, as a platform's buttons answer them. */
  public interface Answers {
    /** The interaction now, or null when there is none of that id. */
    Interactions.View show(String id);

    /**
     * Records a person's answer ({@code approve} for a plan, else the answers in order), given
     * through {@code via}: null when it was taken, else why not, in a sentence.
     */
    String answer(
        String id,
        List<Interactions.QuestionAnswer> answers,
        Boolean approve,
        String feedback,
        String by,
        String via);
  }

  /**
   * Posts the reply of a session's ended turn ({@code executionId}); runs on the posting thread.
   */
  public interface Replies {
    void post(Session session, String executionId, String reply);
  }

  /** The most questions answered part-way at once (a click waits for the other questions). */
  static final int MAX_PARTIAL = 256;

  /** The most posts waiting (replies, cards); past it the oldest is dropped, and said. */
  public static final int MAX_WAITING_POSTS = 1000;

  private final String kind;
  private final SessionService sessions;
  private final NewSessions newSessions;
  private final Answers answers;
  private final Object creating = new Object();
  private final Map<String, String[]> partial =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, String[]> eldest) {
          return size() > MAX_PARTIAL;
        }
      };
  private final ExecutorService posting;
  private volatile SessionService.Subscription following;
  private volatile boolean closed;
  private Thread trying;

  /** The first wait after a failed attempt to reach the platform; it doubles up to the most. */
  public static final Duration RETRY_FIRST = Duration.ofSeconds(2);

  public static final Duration RETRY_MOST = Duration.ofMinutes(2);

  /** One attempt to reach the platform (sign in, connect). */
  public interface Attempt {
    void run() throws Exception;
  }

  /**
   * @param kind the platform's channel kind ({@code slack}, {@code feishu}): its sessions' channels
   *     start with it and a colon
   */
  public FrontDoor(String kind, SessionService sessions, NewSessions newSessions, Answers answers) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.sessions = Objects.requireNonNull(sessions, "sessions");
    this.newSessions = Objects.requireNonNull(newSessions, "newSessions");
    this.answers = Objects.requireNonNull(answers, "answers");
    this.posting =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(MAX_WAITING_POSTS),
            r -> {
              Thread t = new Thread(r, kind + "-post");
              t.setDaemon(true);
              return t;
            },
            (task, pool) -> {
              if (!pool.isShutdown()) {
                pool.getQueue().poll();
                pool.execute(task);
                log.warn(
                    "{}: over {} posts waited; the oldest was dropped", kind, MAX_WAITING_POSTS);
              }
            });
  }

  public SessionService sessions() {
    return sessions;
  }

  /** Whether the front door follows its sessions yet (it takes messages only then). */
  public boolean started() {
    return following != null;
  }

  /**
   * Follows the sessions: when a turn of one on this platform ends, the turn's last text (or why it
   * failed; nothing when it was stopped) is handed to {@code replies} on the posting thread.
   */
  public synchronized void start(Replies replies) {
    Objects.requireNonNull(replies, "replies");
    following =
        sessions.followAll(
            (sessionId, update) -> {
              if (update instanceof SessionService.Update.TurnEnded ended && ours(sessionId)) {
                submit(() -> reply(sessionId, ended, replies));
              }
            });
  }

  /** Whether {@code sessionId} is on this platform (others' turns never take a place in line). */
  private boolean ours(String sessionId) {
    try {
      String channel = sessions.get(sessionId).channel();
      return channel != null && channel.startsWith(kind + ":");
    } catch (SessionException e) {
      return false;
    }
  }

  private void reply(String sessionId, SessionService.Update.TurnEnded ended, Replies replies) {
    Session session;
    try {
      session = sessions.get(sessionId);
    } catch (SessionException e) {
      return;
    }
    if (session.channel() == null || !session.channel().startsWith(kind + ":")) {
      return;
    }
    String reply = sessions.lastSaid(sessionId, ended.executionId());
    if (reply == null && ended.error() != null && ended.status() != Execution.Status.CANCELLED) {
      reply = "The turn failed: " + ended.error();
    }
    if (reply != null && !reply.isBlank()) {
      replies.post(session, ended.executionId(), reply);
    }
  }

  /**
   * Runs {@code attempt} on a thread of its own until it succeeds or the front door closes: each
   * failure is logged as {@code failed} and {@code reason} of it (which must hold no secret), and
   * tried again after {@link #RETRY_FIRST}, then twice as long each time up to {@link #RETRY_MOST}.
   */
  public synchronized void keepTrying(
      String failed, Attempt attempt, java.util.function.Function<Exception, String> reason) {
    trying =
        new Thread(
            () -> {
              Duration wait = RETRY_FIRST;
              while (!closed) {
                try {
                  attempt.run();
                  return;
                } catch (InterruptedException e) {
                  return;
                } catch (Exception e) {
                  log.warn(
                      "{} ({}); trying again in {} s", failed, reason.apply(e), wait.toSeconds());
                }
                try {
                  Thread.sleep(wait.toMillis());
                } catch (InterruptedException e) {
                  return;
                }
                Duration doubled = wait.multipliedBy(2);
                wait = doubled.compareTo(RETRY_MOST) > 0 ? RETRY_MOST : doubled;
              }
            },
            kind + "-connect");
    trying.setDaemon(true);
    trying.start();
  }

  /** Whether the front door is closing (or closed). */
  public boolean closed() {
    return closed;
  }

  /** Runs {@code post} on the posting thread, after those before it; dropped once closing. */
  public void submit(Runnable post) {
    try {
      posting.execute(post);
    } catch (RejectedExecutionException e) {
      // closing: nothing more is posted
    }
  }

  /**
   * The session on {@code where}, made when there is none: one at a time, so that two first
   * messages of a channel make one session. It is named {@code name} (cut to 64 characters), or a
   * name of its own when another session has that one.
   */
  public Session sessionOn(String where, String name) throws SessionException {
    synchronized (creating) {
      Session found = sessions.findByChannel(where);
      if (found != null) {
        return found;
      }
      String wanted = name.length() <= 64 ? name : name.substring(0, 64);
      try {
        sessions.get(wanted);
        wanted = null;
      } catch (SessionException free) {
        // the name is free
      }
      return newSessions.create(wanted, where);
    }
  }

  /**
   * The open interaction {@code id} of a session on {@code channel} (the platform's own id, after
   * the kind): null when there is none, it is answered, or it belongs to another channel (then said
   * in the log).
   */
  public Interactions.View openOn(String id, String channel) {
    Interactions.View view = answers.show(id);
    if (view == null || !view.state().equals(Interactions.OPEN)) {
      return null;
    }
    Session session;
    try {
      session = sessions.get(view.sessionId());
    } catch (SessionException e) {
      return null;
    }
    String own = session.channel();
    if (own == null
        || !(own.equals(kind + ":" + channel) || own.startsWith(kind + ":" + channel + "/"))) {
      log.info("{}: a click for {} came from another channel; ignored", kind, id);
      return null;
    }
    return view;
  }

  /**
   * A click on Approve or Reject of a plan: null when taken, else why not. A rejection from a
   * button carries no reason, so the agent is told to ask.
   */
  public String decide(
      Interactions.View view, boolean approve, String platform, String where, String by) {
    return answers.answer(
        view.id(),
        null,
        approve,
        approve
            ? null
            : "Rejected in "
                + platform
                + " without a reason: ask in the "
                + where
                + " what to change.",
        by,
        kind);
  }

  /**
   * What {@link #choose} answers while the person has not chosen for every question yet (compare by
   * identity).
   */
  @SuppressWarnings("StringOperationCanBeSimplified")
  public static final String WAITING = new String("waiting for the other questions");

  /**
   * A click on option {@code option} of question {@code question}: the question's answer is kept
   * until every question of the interaction has one from the same person, and then they are
   * answered together. Null when taken, {@link #WAITING} while other questions wait, else why not.
   */
  public String choose(Interactions.View view, int question, int option, String by) {
    List<Interactions.Question> questions = view.questions();
    if (questions == null
        || question < 0
        || question >= questions.size()
        || questions.get(question).options() == null
        || option < 0
        || option >= questions.get(question).options().size()) {
      return "That option is not one of the question's.";
    }
    String[] chosen;
    synchronized (partial) {
      chosen = partial.computeIfAbsent(view.id() + "/" + by, id -> new String[questions.size()]);
      chosen[question] = questions.get(question).options().get(option).label();
      for (String label : chosen) {
        if (label == null) {
          return WAITING;
        }
      }
      partial.remove(view.id() + "/" + by);
    }
    List<Interactions.QuestionAnswer> given = new ArrayList<>();
    for (String label : chosen) {
      given.add(new Interactions.QuestionAnswer(List.of(label), null));
    }
    return answers.answer(view.id(), given, null, null, by, kind);
  }

  @Override
  public synchronized void close() {
    closed = true;
    if (trying != null) {
      trying.interrupt();
    }
    SessionService.Subscription followed = following;
    if (followed != null) {
      followed.close();
    }
    posting.shutdown();
    try {
      posting.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
