package dev.cortex.protocol.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

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
}
