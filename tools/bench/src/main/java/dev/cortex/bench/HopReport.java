package dev.cortex.bench;

import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.node.ObjectNode;

/**
 * The hops of one kind of traced call: the bench's own send and receipt of each call (wall clock,
 * microseconds), matched with the marks that {@code CORTEX_HOP_TRACE} made for its command id in
 * the MCP server, the agent server and the device, and rendered as the median of each step from one
 * mark to the next.
 */
final class HopReport {
  /** The marks in the order a remote command passes them, with what each step between covers. */
  private static final List<String[]> STEPS =
      List.of(
          new String[] {"bench.sent", "tool.start", "stdio in, the SDK's dispatch, validation"},
          new String[] {"tool.start", "webhook.received", "to the webhook: endpoint, HTTP, parse"},
          new String[] {"webhook.received", "hub.sent", "the hub takes it and sends the frame"},
          new String[] {"hub.sent", "device.received", "WebSocket to the device"},
          new String[] {"device.received", "device.run", "the device's command thread"},
          new String[] {"device.run", "device.answer", "the action (for bash: the process)"},
          new String[] {"device.answer", "hub.result", "WebSocket back to the hub"},
          new String[] {"hub.result", "webhook.answered", "the webhook writes the answer"},
          new String[] {"webhook.answered", "tool.answered", "HTTP answer read by the MCP server"},
          new String[] {"tool.answered", "tool.end", "the result bound"},
          new String[] {"tool.end", "bench.received", "the tool's result out on stdio"});

  private final String what;
  private final List<long[]> windows = new ArrayList<>();

  HopReport(String what) {
    this.what = what;
  }

  /** Makes one call through {@code client}, noting when it was sent and answered. */
  void call(StdioClient client, ObjectNode params) throws IOException {
    long sent = micros(Instant.now());
    StdioClient.Sent request = client.send("tools/call", params);
    StdioClient.Reply reply = client.await(request, java.time.Duration.ofSeconds(60));
    long received = micros(Instant.now());
    if (reply.failed()) {
      throw new IOException("the traced call failed: " + reply.message());
    }
    windows.add(new long[] {sent, received});
  }

  /** The table of median steps, from the trace file's {@code lines}. */
  String render(List<String> lines) {
    Map<String, Map<String, Long>> byId = new HashMap<>();
    for (String line : lines) {
      String[] parts = line.split(" ");
      if (parts.length == 3) {
        byId.computeIfAbsent(parts[0], k -> new HashMap<>())
            .putIfAbsent(parts[1], Long.parseLong(parts[2]));
      }
    }
    Map<String, List<Long>> steps = new LinkedHashMap<>();
    List<Long> totals = new ArrayList<>();
    int matched = 0;
    for (long[] window : windows) {
      Map<String, Long> marks = null;
      for (Map<String, Long> candidate : byId.values()) {
        Long start = candidate.get("tool.start");
        if (start != null && start >= window[0] && start <= window[1]) {
          marks = new HashMap<>(candidate);
          break;
        }
      }
      if (marks == null) {
        continue;
      }
      matched++;
      marks.put("bench.sent", window[0]);
      marks.put("bench.received", window[1]);
      totals.add(window[1] - window[0]);
      for (String[] step : STEPS) {
        Long from = marks.get(step[0]);
        Long to = marks.get(step[1]);
        if (from != null && to != null) {
          steps.computeIfAbsent(step[0] + " → " + step[1], k -> new ArrayList<>()).add(to - from);
        }
      }
    }
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "%s: %d of %d calls matched their marks; median call %.3f ms.%n%n",
            what,
            matched,
            windows.size(),
            median(totals) / 1e3));
    out.append("| step | what it covers | p50 ms | p90 ms |\n|---|---|---|---|\n");
    double sum = 0;
    for (String[] step : STEPS) {
      List<Long> samples = steps.get(step[0] + " → " + step[1]);
      if (samples == null) {
        continue;
      }
      sum += median(samples);
      out.append(
          String.format(
              Locale.ROOT,
              "| %s → %s | %s | %.3f | %.3f |%n",
              step[0],
              step[1],
              step[2],
              median(samples) / 1e3,
              percentile(samples, 0.9) / 1e3));
    }
    out.append(String.format(Locale.ROOT, "%nSum of the step medians: %.3f ms.%n", sum / 1e3));
    return out.toString();
  }

  private static long micros(Instant now) {
    return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
  }

  private static double median(List<Long> samples) {
    return percentile(samples, 0.5);
  }

  private static double percentile(List<Long> samples, double p) {
    if (samples.isEmpty()) {
      return 0;
    }
    List<Long> sorted = new ArrayList<>(samples);
    sorted.sort(null);
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.floor(p * sorted.size())));
  }
}
