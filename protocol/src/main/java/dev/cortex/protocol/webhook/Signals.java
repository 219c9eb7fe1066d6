package dev.cortex.protocol.webhook;

import dev.cortex.protocol.WireJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Signals to waitpoints: what one carries, its bounds, and what the agent server answers. A signal
 * reaches the server by {@code cortex signal}, by {@code POST /webhook/signal}, or as a file in a
 * spool directory (see {@link Spool}); every path checks it by the same rules.
 */
public final class Signals {
  private Signals() {}

  /** The route that takes signals, authorised by the waitpoint's secret alone. */
  public static final String ROUTE = "/webhook/signal";

  /** The User-Agent of {@code cortex signal}, so that the server can say a signal came by it. */
  public static final String CLI_AGENT = "cortex-signal";

  /** A waitpoint's id: {@code wp-} and 12 hex digits. */
  public static final Pattern WAITPOINT_ID = Pattern.compile("wp-[0-9a-f]{12}");

  /** A member's name, as a waitpoint lists it and a signal names it. */
  public static final Pattern MEMBER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._:@-]{0,63}");

  /** A signal's own id, which makes a replayed signal harmless. */
  public static final Pattern SIGNAL_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  /** The longest message a signal carries, in characters. */
  public static final int MAX_MESSAGE = 4_000;

  /** The largest data a signal carries, as compact JSON in UTF-8 bytes. */
  public static final int MAX_DATA_BYTES = 16 * 1024;

  /** The longest secret the server looks at. */
  public static final int MAX_SECRET = 200;

  /** The statuses a signal may have. */
  public static final Set<String> STATUSES = Set.of("ok", "fail", "progress");

  /** Environment variables of a signal recipe, read by {@code cortex signal}. */
  public static final String ENV_ID = "CORTEX_WAIT_ID";

  public static final String ENV_SECRET = "CORTEX_WAIT_SECRET";
  public static final String ENV_URL = "CORTEX_SIGNAL_URL";

  /**
   * A signal.
   *
   * @param id the waitpoint it is for
   * @param secret the waitpoint's one-time secret
   * @param status {@code ok}, {@code fail} or {@code progress} (null for ok)
   * @param member who reports, when the waitpoint waits for several
   * @param data JSON that goes along, shown to the agent as data
   * @param signalId the signal's own id: the same id twice is recorded once
   */
  public record Signal(
      String id,
      String secret,
      String status,
      String message,
      String member,
      JsonNode data,
      String signalId) {
    public Signal {
      status = status == null ? "ok" : status;
      data = data == null || data.isNull() || data.isMissingNode() ? null : data;
    }

    /** The same signal with its own id. */
    public Signal withSignalId(String value) {
      return new Signal(id, secret, status, message, member, data, value);
    }
  }

  /** What is wrong with a signal, in sentences; empty when it may be sent. */
  public static List<String> problems(Signal signal) {
    List<String> problems = new ArrayList<>();
    if (signal.id() == null || !WAITPOINT_ID.matcher(signal.id()).matches()) {
      problems.add("the waitpoint id must look like wp-3fa2c1d0e4b5 (given: " + shown(signal.id()));
    }
    if (signal.secret() == null || signal.secret().isBlank()) {
      problems.add("the waitpoint's secret is missing");
    } else if (signal.secret().length() > MAX_SECRET) {
      problems.add("the secret is longer than " + MAX_SECRET + " characters");
    }
    if (!STATUSES.contains(signal.status())) {
      problems.add("status must be ok, fail or progress, not '" + clip(signal.status()) + "'");
    }
    if (signal.message() != null && signal.message().length() > MAX_MESSAGE) {
      problems.add(
          "the message has "
              + signal.message().length()
              + " characters; at most "
              + MAX_MESSAGE
              + " are taken");
    }
    if (signal.member() != null && !MEMBER.matcher(signal.member()).matches()) {
      problems.add(
          "member '"
              + clip(signal.member())
              + "' is not a member name: 1-64 letters, digits and . _ : @ -");
    }
    if (signal.data() != null) {
      int bytes = WireJson.mapper().writeValueAsBytes(signal.data()).length;
      if (bytes > MAX_DATA_BYTES) {
        problems.add(
            "the data is "
                + bytes
                + " bytes of JSON; at most "
                + MAX_DATA_BYTES
                + " are taken (put large results in a file and send its path)");
      }
    }
    if (signal.signalId() != null && !SIGNAL_ID.matcher(signal.signalId()).matches()) {
      problems.add("signal_id must be 1-128 letters, digits and . _ -");
    }
    return problems;
  }

  private static String shown(String value) {
    return value == null ? "nothing)" : "'" + clip(value) + "')";
  }

  private static String clip(String value) {
    if (value == null) {
      return "";
    }
    return value.length() > 40 ? value.substring(0, 40) + "…" : value;
  }

  /**
   * The server's answer to a signal it took.
   *
   * @param outcome one of {@code accepted} (recorded; it may have fired the waitpoint), {@code
   *     progress} (recorded; progress never wakes), {@code duplicate} (a signal of this id was
   *     recorded before), {@code resolved} (the waitpoint had resolved, expired or was cancelled:
   *     nothing recorded)
   * @param state the waitpoint's state after the signal
   * @param fired whether this signal made the waitpoint fire (or start its coalescing window)
   */
  public record Outcome(
      String outcome, String waitpoint, String state, boolean fired, String message) {
    public static final String ACCEPTED = "accepted";
    public static final String PROGRESS = "progress";
    public static final String DUPLICATE = "duplicate";
    public static final String RESOLVED = "resolved";
  }

  /** The codes a refused signal carries. */
  public static final class Codes {
    private Codes() {}

    /** No waitpoint of that id (or one removed long after it resolved). */
    public static final String UNKNOWN_WAITPOINT = "UNKNOWN_WAITPOINT";

    /** The secret is not the waitpoint's. */
    public static final String BAD_SECRET = "BAD_SECRET";

    /** Too many refused signals lately; wait a minute. */
    public static final String RATE_LIMITED = "RATE_LIMITED";
  }
}
