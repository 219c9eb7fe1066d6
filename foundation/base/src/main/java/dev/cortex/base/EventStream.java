package dev.cortex.base;

/**
 * Reads a body of server-sent events ({@code text/event-stream}) into events: {@code event:} names
 * one, {@code data:} lines (joined with newlines) carry it, a blank line ends it; comments and the
 * other fields are skipped. An event cut off by the end of the body is dropped, as the format says.
 */
public final class EventStream {
  private EventStream() {}

  /** The lines of the body, without their line ends; null at its end. */
  @FunctionalInterface
  public interface Lines<E extends Exception> {
    String readLine() throws E, InterruptedException;
  }

  /** Hears the events of a stream. */
  @FunctionalInterface
  public interface Handler<E extends Exception> {
    /**
     * One event.
     *
     * @param name its {@code event:} field, or {@code message} when it had none
     * @return true when nothing more need be read
     */
    boolean event(String name, String data) throws E;
  }

  /** An event whose data is longer than the reader takes. */
  public static final class TooLong extends RuntimeException {
    private static final long serialVersionUID = 1L;

    TooLong(int limit) {
      super("an event of over " + limit + " characters", null, false, false);
    }
  }

  /**
   * Reads events until {@code handler} says it has what it needs (true) or the body ends (false).
   *
   * @throws TooLong when an event's data passes {@code maxData} characters
   */
  public static <E extends Exception> boolean read(
      Lines<? extends E> lines, Handler<? extends E> handler, int maxData)
      throws E, InterruptedException {
    String name = null;
    StringBuilder data = null;
    String line;
    while ((line = lines.readLine()) != null) {
      if (line.isEmpty()) {
        if (data != null && handler.event(name == null ? "message" : name, data.toString())) {
          return true;
        }
        name = null;
        data = null;
        continue;
      }
      if (line.startsWith(":")) {
        continue;
      }
      int colon = line.indexOf(':');
      String field = colon < 0 ? line : line.substring(0, colon);
      String value = colon < 0 ? "" : line.substring(colon + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      if (field.equals("event")) {
        name = value;
      } else if (field.equals("data")) {
        data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
        if (data.length() > maxData) {
          throw new TooLong(maxData);
        }
      }
    }
    return false;
  }
}
