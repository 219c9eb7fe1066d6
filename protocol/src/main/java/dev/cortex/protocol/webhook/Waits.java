package dev.cortex.protocol.webhook;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Waitpoints on the webhook: the routes the {@code wait_*} tools call (with the webhook token, for
 * the calling session), their bodies and answers, and the bounds both sides check.
 */
public final class Waits {
  private Waits() {}

  public static final String CREATE = "/webhook/wait/create";
  public static final String CHECK = "/webhook/wait/check";
  public static final String CANCEL = "/webhook/wait/cancel";

  /**
   * The form a waitpoint's secret is minted in: {@code wps_} and 32 random bytes in base64url (43
   * characters), so that it is recognised, and taken out, wherever it would be kept or shown.
   */
  public static final Pattern SECRET = Pattern.compile("wps_[A-Za-z0-9_-]{43}");

  public static final int MAX_LABEL = 200;
  public static final int MAX_INTENT = 4_000;
  public static final int MAX_MEMBERS = 100;
  public static final int MAX_SIGNALS = 100;
  public static final double MIN_EXPIRES_HOURS = 1;
  public static final double MAX_EXPIRES_HOURS = 720;
  public static final double DEFAULT_EXPIRES_HOURS = 168;

  /** The most waitpoints one session may have open at a time. */
  public static final int MAX_OPEN_PER_SESSION = 100;

  /**
   * A new waitpoint.
   *
   * @param quorum a number, or the string {@code all}; null for all members (or 1 without members)
   */
  public record Create(
      String sessionId,
      String label,
      String intent,
      List<String> members,
      JsonNode quorum,
      Boolean failFast,
      Integer maxSignals,
      Double expiresInHours,
      String device) {}

  /** One waitpoint of the session ({@code id}), or all it waits on (null). */
  public record Check(String sessionId, String id) {}

  public record Cancel(String sessionId, String id) {}

  /** One report of a member (or an anonymous signal) as the agent sees it. */
  public record Report(
      String member, String status, String message, JsonNode data, String at, String via) {}

  /**
   * A waitpoint as the agent sees it.
   *
   * @param state {@code open}, {@code closing} (its quorum is reached; reports arriving within the
   *     coalescing window join the wake), {@code resolved}, {@code expired} or {@code cancelled}
   * @param round the mailbox round now collecting reports (1 for the first)
   * @param reports the reports of the current round (of the last one, once resolved)
   * @param progress the latest progress reports, newest last
   */
  public record View(
      String id,
      String label,
      String intent,
      String state,
      List<String> members,
      int quorum,
      boolean failFast,
      int maxSignals,
      int fires,
      int round,
      List<Report> reports,
      List<Report> progress,
      String device,
      String createdAt,
      String expiresAt,
      String endedAt) {}

  /**
   * How to signal a waitpoint, ready to paste.
   *
   * @param command a {@code cortex signal} line
   * @param env the environment under which a bare {@code cortex signal --status …} signals it
   * @param curl the same signal over HTTP
   * @param onExit a shell line that runs a command and signals with its exit code
   * @param note what to replace, if anything
   * @param device the same on the device, when the waitpoint names one
   */
  public record Recipe(
      String command,
      Map<String, String> env,
      String curl,
      String onExit,
      String note,
      DeviceRecipe device) {}

  /** How to signal from a device: into its spool, from where its client sends it over the hub. */
  public record DeviceRecipe(
      String device, String command, Map<String, String> env, String onExit, String note) {}

  /** A waitpoint just created, with its one-time secret (only its hash is kept). */
  public record Created(View waitpoint, String secret, Recipe recipe) {}

  public record Checked(List<View> waitpoints) {}

  public record Cancelled(String id, boolean cancelled, String state, String message) {}

  /** The codes of waitpoint requests beside the kit's INVALID_ARGUMENT. */
  public static final class Codes {
    private Codes() {}

    /** No waitpoint of that id belongs to the calling session. */
    public static final String NOT_FOUND = "NOT_FOUND";

    /** The call came from no session (no CORTEX_SESSION_ID), or from one the server lacks. */
    public static final String NO_SESSION = "NO_SESSION";
  }
}
