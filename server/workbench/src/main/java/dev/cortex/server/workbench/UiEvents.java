package dev.cortex.server.workbench;

import dev.cortex.http.JsonBodies;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /api/ui/events}: the journal as server-sent events. On connect, every event after
 * {@code Last-Event-ID} (or {@code ?after=}) is replayed, then new ones follow as they are
 * recorded; {@code ?session=} keeps one session's. An id older than the journal keeps is answered
 * with {@code event: reset} first; the comment {@code : live} ends the replay. A comment {@code :
 * ping} goes out when nothing else did for the ping period.
 *
 * <p>At most {@value #MAX_STREAMS} streams are open at once. A new one beyond that ends the oldest:
 * a stream whose browser went away is noticed only at its next write (the next ping at the latest),
 * and closed tabs and reloads must not keep a new page from its events. A page whose stream was
 * ended this way reconnects with its {@code Last-Event-ID} and loses nothing.
 */
public final class UiEvents extends Handler.Abstract {
  public static final String ROUTE = "/api/ui/events";
  public static final int MAX_STREAMS = 32;
  private static final int BATCH = 500;

  private final EventJournal journal;
  private final Duration ping;

  /** The open streams, oldest first; each is ended when it is evicted or the server stops. */
  private final java.util.ArrayDeque<Stream> open = new java.util.ArrayDeque<>();

  /** One open stream. */
  private static final class Stream {
    volatile boolean evicted;
  }

  private volatile boolean closed;

  public UiEvents(EventJournal journal, Duration ping) {
    this.journal = Objects.requireNonNull(journal, "journal");
    this.ping = Objects.requireNonNull(ping, "ping");
  }

  /** Ends every open stream (the server stops). */
  public void close() {
    closed = true;
    journal.wake();
  }

  @Override
  public boolean handle(Request request, Response response, Callback callback) throws Exception {
    if (!"GET".equals(request.getMethod())) {
      JsonBodies.error(response, callback, 405, "METHOD_NOT_ALLOWED", "Use GET.");
      return true;
    }
    var query = Request.extractQueryParameters(request);
    String session = query.getValue("session");
    long after;
    try {
      String given = request.getHeaders().get("Last-Event-ID");
      if (given == null || given.isBlank()) {
        given = query.getValue("after");
      }
      after = given == null || given.isBlank() ? journal.newest() : Long.parseLong(given.strip());
      if (after < 0) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      JsonBodies.error(
          response,
          callback,
          400,
          "INVALID_ARGUMENT",
          "Last-Event-ID and 'after' take an event id (a whole number).");
      return true;
    }
    if (session != null && (session.isBlank() || session.length() > 200)) {
      JsonBodies.error(
          response, callback, 400, "INVALID_ARGUMENT", "'session' takes a session id.");
      return true;
    }
    Stream stream = new Stream();
    synchronized (open) {
      while (open.size() >= MAX_STREAMS) {
        open.removeFirst().evicted = true;
      }
      open.addLast(stream);
    }
    journal.wake();
    try {
      response.setStatus(200);
      response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/event-stream; charset=utf-8");
      response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
      response.getHeaders().put("X-Accel-Buffering", "no");
      OutputStream out = Content.Sink.asOutputStream(response);
      stream(out, after, session, stream);
      out.close();
      callback.succeeded();
    } catch (IOException e) {
      // The browser went away.
      callback.failed(e);
    } finally {
      synchronized (open) {
        open.remove(stream);
      }
    }
    return true;
  }

  private void stream(OutputStream out, long after, String session, Stream stream)
      throws IOException, InterruptedException {
    long last = after;
    boolean live = false;
    if (journal.lost(after)) {
      write(out, "event: reset\ndata: {}\n\n");
    } else {
      write(out, ": connected\n\n");
    }
    while (!closed && !stream.evicted) {
      long seen = journal.newest();
      List<EventJournal.Event> events = journal.after(last, session, BATCH);
      for (EventJournal.Event event : events) {
        last = event.id();
        write(
            out,
            "id: " + event.id() + "\nevent: " + event.type() + "\ndata: " + event.data() + "\n\n");
      }
      if (events.size() == BATCH) {
        continue;
      }
      if (!live) {
        // Everything the journal held after the id has gone out: from here on, events are new.
        write(out, ": live\n\n");
        live = true;
      }
      // Events of other sessions move the newest id but are not this stream's: all of this
      // session's up to 'seen' were in the query.
      long waited = session == null ? last : Math.max(last, seen);
      journal.await(waited, ping);
      if (!closed && !stream.evicted && journal.newest() <= waited) {
        write(out, ": ping\n\n");
      }
    }
  }

  private static void write(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.UTF_8));
    out.flush();
  }
}
