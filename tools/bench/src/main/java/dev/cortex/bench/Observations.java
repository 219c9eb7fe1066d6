package dev.cortex.bench;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;

/** Everything odd or noteworthy a server did over all its processes in one run. */
final class Observations {
  private static final int KEPT = 5;

  private final Map<String, Integer> notifications = new TreeMap<>();
  private final Map<String, Integer> serverRequests = new TreeMap<>();
  private final List<String> strayLines = new ArrayList<>();
  private final Set<String> stderrFirstLines = new LinkedHashSet<>();
  private long stderrBytes;
  private int processesWithStderr;
  private int processes;
  private int forcedExits;
  private int failedCalls;
  private int discardedStarts;
  private int keptSetupStarts;
  private String setupLine = "";
  private String firstFailure = "";

  /** Takes in what a closed client saw. */
  void absorb(StdioClient client) {
    processes++;
    client.notifications().forEach((method, n) -> notifications.merge(method, n, Integer::sum));
    client.serverRequests().forEach((method, n) -> serverRequests.merge(method, n, Integer::sum));
    for (String line : client.strayLines()) {
      if (strayLines.size() < KEPT) {
        strayLines.add(line);
      }
    }
    if (client.stderrBytes() > 0) {
      processesWithStderr++;
      stderrBytes += client.stderrBytes();
      client.stderrHead().lines().filter(l -> !l.isBlank()).findFirst().ifPresent(this::stderr);
    }
    if (client.forcedExit()) {
      forcedExits++;
    }
  }

  private void stderr(String firstLine) {
    if (stderrFirstLines.size() < KEPT) {
      stderrFirstLines.add(firstLine.strip());
    }
  }

  /** Records a start in which the launcher did one-off set-up; {@code discarded} unless kept. */
  void setupStart(String line, boolean discarded) {
    setupLine = line;
    if (discarded) {
      discardedStarts++;
    } else {
      keptSetupStarts++;
    }
  }

  /** Records a call whose reply was an error. */
  void failedCall(JsonNode reply) {
    if (failedCalls++ == 0) {
      String text = reply.toString();
      firstFailure = text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
  }

  /** The observations as short sentences; the first says whether stdout was clean. */
  List<String> notes() {
    List<String> notes = new ArrayList<>();
    notes.add(
        strayLines.isEmpty()
            ? processes + " processes, stdout carried only JSON-RPC"
            : processes + " processes, stdout carried other lines, e.g. " + strayLines);
    if (!notifications.isEmpty()) {
      notes.add("notifications received: " + counts(notifications));
    }
    if (!serverRequests.isEmpty()) {
      notes.add(
          "requests from the server (ping answered, others refused): " + counts(serverRequests));
    }
    notes.add(
        stderrBytes == 0
            ? "stderr: nothing"
            : "stderr: "
                + stderrBytes
                + " bytes from "
                + processesWithStderr
                + " of "
                + processes
                + " processes, first lines "
                + stderrFirstLines);
    if (discardedStarts > 0) {
      notes.add(
          "starts discarded and repeated because the launcher did one-off set-up: "
              + discardedStarts
              + " (last: \""
              + setupLine
              + "\")");
    }
    if (keptSetupStarts > 0) {
      notes.add(
          "starts kept although they include set-up (it recurred on every retry): "
              + keptSetupStarts);
    }
    if (forcedExits > 0) {
      notes.add(
          "did not exit within 3 s of stdin closing, killed: " + forcedExits + " of " + processes);
    }
    if (failedCalls > 0) {
      notes.add("calls answered with an error: " + failedCalls + ", first: " + firstFailure);
    }
    return notes;
  }

  private static String counts(Map<String, Integer> counts) {
    List<String> parts = new ArrayList<>();
    counts.forEach((key, n) -> parts.add(key + " x" + n));
    return String.join(", ", parts);
  }
}
