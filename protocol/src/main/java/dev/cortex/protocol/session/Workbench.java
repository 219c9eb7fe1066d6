package dev.cortex.protocol.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Set;

/**
 * The workbench's read API on its own connector ({@code /api/ui/...}): what the pages show beside
 * the session API. Requests are strict records like the session API's; answers travel with all
 * their fields, in snake_case.
 */
public final class Workbench {
  private Workbench() {}

  public static final String OVERVIEW = "/api/ui/overview";
  public static final String EXECUTIONS = "/api/ui/executions";
  public static final String DEVICES = "/api/ui/devices";
  public static final String COSTS = "/api/ui/costs";
  public static final String WAITPOINTS = "/api/ui/waitpoints";

  /** The most days {@link #COSTS} counts back. */
  public static final int MAX_COST_DAYS = 366;

  /** The most waitpoints one answer lists, and the signals shown with each. */
  public static final int MAX_WAITPOINTS = 200;

  public static final int SHOWN_SIGNALS = 10;

  /** The most executions one answer lists. */
  public static final int MAX_EXECUTIONS = 500;

  /** {@link #OVERVIEW} takes nothing. */
  public record Nothing() {
    public static final String USAGE = "Send {}.";
  }

  /** {@link #EXECUTIONS}: the newest turns, of one session or of all. */
  public record ExecutionsQuery(String session, Integer limit) {
    public static final String USAGE =
        "Send {\"session\"?: ID, \"limit\"?: 1-" + MAX_EXECUTIONS + " (default 100)}.";

    public ExecutionsQuery {
      if (session != null && (session.isBlank() || session.length() > 200)) {
        throw new IllegalArgumentException("session takes a session id.");
      }
      if (limit != null && (limit < 1 || limit > MAX_EXECUTIONS)) {
        throw new IllegalArgumentException("limit is from 1 to " + MAX_EXECUTIONS + ".");
      }
      limit = limit == null ? 100 : limit;
    }
  }

  /** The sessions, and how many of them run or wait for a person. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Overview(
      List<Sessions.View> sessions, int running, int waiting, int devicesOnline) {}

  /** One turn, as the executions page lists it. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record ExecutionRow(
      String id,
      String kind,
      String status,
      String sessionId,
      String project,
      String backend,
      String model,
      String startedAt,
      String endedAt,
      double usd,
      int turns,
      String error) {}

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Executions(List<ExecutionRow> executions) {}

  /** A registered device: whether it is connected, and what it said when it connected. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Device(
      String name, boolean online, String platform, String lastHeartbeat, int jobsRunning) {}

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Devices(List<Device> devices) {}

  /** {@link #COSTS}: spend over the last {@code days} days (today included). */
  public record CostsQuery(Integer days) {
    public static final String USAGE = "Send {\"days\"?: 1-" + MAX_COST_DAYS + " (default 30)}.";

    public CostsQuery {
      if (days != null && (days < 1 || days > MAX_COST_DAYS)) {
        throw new IllegalArgumentException("days is from 1 to " + MAX_COST_DAYS + ".");
      }
      days = days == null ? 30 : days;
    }
  }

  /** One day's spend; {@code day} is a date in the budgets' time zone. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record DaySpend(String day, double usd) {}

  /**
   * One project's spend over the period, today and this month, with its own caps (null when it has
   * none). {@code project} is null for turns of no project.
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record ProjectSpend(
      String project,
      double usd,
      double todayUsd,
      double monthUsd,
      Double dailyCapUsd,
      Double monthlyCapUsd) {}

  /** The overall caps and what they leave (null without a cap). */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Caps(
      Double dailyUsd, Double monthlyUsd, Double dailyRemainingUsd, Double monthlyRemainingUsd) {}

  /**
   * Spend per day and per project, and today's and this month's as {@code cost_query} counts them.
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Costs(
      String currency,
      String timezone,
      List<DaySpend> days,
      List<ProjectSpend> projects,
      double totalUsd,
      double todayUsd,
      double monthUsd,
      Caps caps) {}

  /** The states {@link #WAITPOINTS} filters on. */
  public static final Set<String> WAITPOINT_STATES =
      Set.of("armed", "fired", "expired", "cancelled");

  /** {@link #WAITPOINTS}: the newest waitpoints of every session, or those in one state. */
  public record WaitpointsQuery(String state) {
    public static final String USAGE =
        "Send {\"state\"?: \"armed\" | \"fired\" | \"expired\" | \"cancelled\"}.";

    public WaitpointsQuery {
      if (state != null && !WAITPOINT_STATES.contains(state)) {
        throw new IllegalArgumentException("state is one of armed, fired, expired, cancelled.");
      }
    }
  }

  /** A signal a waitpoint received: a report of a member, or progress. */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record WaitSignal(String at, String member, String status, String message, String via) {}

  /**
   * A waitpoint: {@code state} is {@code armed} (it can still fire), {@code fired}, {@code expired}
   * or {@code cancelled}; {@code phase} is its stored state ({@code open}, {@code closing}, {@code
   * resolved}, ...).
   */
  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record WaitpointRow(
      String id,
      String sessionId,
      String label,
      String intent,
      String state,
      String phase,
      int fires,
      String device,
      String createdAt,
      String expiresAt,
      String endedAt,
      List<WaitSignal> signals) {}

  @JsonInclude(JsonInclude.Include.ALWAYS)
  public record Waitpoints(List<WaitpointRow> waitpoints) {}
}
