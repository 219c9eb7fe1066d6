package dev.cortex.server.sessions;

import dev.cortex.server.sessions.store.Transcript;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Who follows each session live (chats, followed sends), and what they hear. */
final class Followers {
  private static final Logger log = LoggerFactory.getLogger(Followers.class);

  private final int max;
  private final Map<String, List<Consumer<SessionService.Update>>> bySession =
      new ConcurrentHashMap<>();

  /**
   * @param max the most listeners one session may have
   */
  Followers(int max) {
    this.max = max;
  }

  SessionService.Subscription follow(String sessionId, Consumer<SessionService.Update> listener)
      throws SessionException {
    List<Consumer<SessionService.Update>> list =
        bySession.computeIfAbsent(sessionId, k -> new CopyOnWriteArrayList<>());
    if (list.size() >= max) {
      throw new SessionException(
          SessionException.INVALID_ARGUMENT,
          "Session " + sessionId + " has " + max + " followers already.");
    }
    list.add(listener);
    return () -> list.remove(listener);
  }

  void publish(String sessionId, Transcript.Entry entry) {
    publish(sessionId, new SessionService.Update.Entry(entry));
  }

  private final List<java.util.function.BiConsumer<String, SessionService.Update>> everyone =
      new CopyOnWriteArrayList<>();

  SessionService.Subscription followAll(
      java.util.function.BiConsumer<String, SessionService.Update> listener) {
    everyone.add(listener);
    return () -> everyone.remove(listener);
  }

  /** Tells every follower of the session, on this thread; a follower that fails is skipped. */
  void publish(String sessionId, SessionService.Update update) {
    for (java.util.function.BiConsumer<String, SessionService.Update> listener : everyone) {
      try {
        listener.accept(sessionId, update);
      } catch (RuntimeException e) {
        log.debug("a follower of every session failed: {}", e.toString());
      }
    }
    for (Consumer<SessionService.Update> listener : bySession.getOrDefault(sessionId, List.of())) {
      try {
        listener.accept(update);
      } catch (RuntimeException e) {
        log.debug("a follower of {} failed: {}", sessionId, e.toString());
      }
    }
  }
}
