package dev.cortex.models;

/**
 * Reads a body of server-sent events ({@code text/event-stream}) into events: {@code event:} names
 * one, {@code data:} lines (joined with newlines) carry it, a blank line ends it; comments and the
 * other fields are skipped. An event cut off by the end of the body is dropped, as the format says.
 */
final class ServerSentEvents {
  /** Hears the events of a stream. */
  interface Handler {
    /**
     * One event.
     *
     * @param name its {@code event:} field, or {@code message} when it had none
     * @return true when the answer is complete and nothing more need be read
     */
    boolean event(String name, String data) throws ModelFailure;
  }

  private ServerSentEvents() {}

  /**
   * Reads events from {@code exchange} until {@code handler} says the answer is complete.
   *
   * @return false when the body ended first
   */
  static boolean read(Exchange exchange, Handler handler)
      throws ModelFailure, InterruptedException {
    String name = null;
    StringBuilder data = null;
    String line;
    while ((line = exchange.readLine()) != null) {
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
      }
    }
    return false;
  }
}
