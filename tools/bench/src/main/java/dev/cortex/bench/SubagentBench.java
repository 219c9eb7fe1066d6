package dev.cortex.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Measures delegation on a real {@code cortex server}, against the same work done by hand through
 * the session API, in one run, interleaved:
 *
 * <ul>
 *   <li>an {@code agent} call of one subagent ({@code POST /webhook/subagent/run}, as the tool
 *       posts it) until the child's program has read its first turn, and until the call's answer;
 *       against a session created and sent its turn by hand ({@code /api/sessions/create} + {@code
 *       send}) until its program has read the turn;
 *   <li>a {@code parallel} call of {@code --items} subagents (at most 8, the tool's cap) until its
 *       answer with every result; against as many sessions created and sent by hand, one after
 *       another, until every turn has ended.
 * </ul>
 *
 * The programs are one small shell script of the {@code command} backend that marks on a FIFO when
 * it has read its turn and ends it at once, so what is measured is Cortex's own overhead.
 */
public final class SubagentBench {
  static final String USAGE =
      "usage: tools/bench/subagents [--calls N] [--warmup W] [--launcher PATH]\n"
          + "  --calls N     measured rounds (default 40)\n"
          + "  --warmup W    unmeasured rounds first (default 5)\n"
          + "  --launcher P  bin/cortex of this checkout (default: found from the working directory)";

  /** The items of the parallel call: the tool's cap. */
  static final int ITEMS = 8;

  private BenchServer server;
  private Path agent;
  private Path work;

  private SubagentBench() {}

  public static void main(String[] args) throws Exception {
    AgentServerBench.main(args, USAGE, 40, 5, "cortex-subagent-bench", new SubagentBench()::run);
    System.exit(0);
  }

  private String run(Path launcher, Path work, int calls, int warmup, List<Process> children)
      throws Exception {
    this.work = work;
    server =
        BenchServer.start(
            launcher,
            work,
            "",
            Map.of("CORTEX_SUBAGENT_MAX_PARALLEL", Integer.toString(ITEMS)),
            children);
    agent = server.program(work.resolve("agent.sh"), "done");
    String parent = server.session(agent, work);

    AgentServerBench.progress("warming up: " + warmup + " rounds ...");
    for (int i = 0; i < warmup; i++) {
      single(parent);
      byHand();
      parallel(parent);
      byHandMany();
    }
    AgentServerBench.progress("measuring: " + calls + " rounds, interleaved ...");
    long[] firstTurn = new long[calls];
    long[] answered = new long[calls];
    long[] hand = new long[calls];
    long[] fanned = new long[calls];
    long[] handMany = new long[calls];
    for (int i = 0; i < calls; i++) {
      long[] one = single(parent);
      firstTurn[i] = one[0];
      answered[i] = one[1];
      hand[i] = byHand();
      fanned[i] = parallel(parent);
      handMany[i] = byHandMany();
    }
    return report(
        calls,
        warmup,
        Stats.of(firstTurn),
        Stats.of(answered),
        Stats.of(hand),
        Stats.of(fanned),
        Stats.of(handMany));
  }

  private ObjectNode item(int n) {
    ObjectNode item = StdioClient.MAPPER.createObjectNode();
    item.put("description", "item " + n).put("prompt", "work " + n);
    item.put("subagent_type", "general-purpose");
    return item;
  }

  /** One subagent: nanoseconds until its program read its turn, and until the call answered. */
  private long[] single(String parent) throws Exception {
    ObjectNode run = item(0);
    run.put("session_id", parent);
    server.clearMarks();
    long start = System.nanoTime();
    JsonNode ran = server.api("/webhook/subagent/run", run);
    long answered = System.nanoTime();
    long turn = server.mark();
    check(ran, 1);
    return new long[] {turn - start, answered - start};
  }

  /** The same by hand: a session created and sent a turn, until its program read it. */
  private long byHand() throws Exception {
    server.clearMarks();
    long start = System.nanoTime();
    String session = server.session(agent, work);
    send(session);
    long turn = server.mark() - start;
    server.awaitIdle(session);
    return turn;
  }

  /** A parallel call of {@link #ITEMS}: nanoseconds until its answer. */
  private long parallel(String parent) throws Exception {
    ObjectNode run = StdioClient.MAPPER.createObjectNode().put("session_id", parent);
    ArrayNode items = run.putArray("parallel");
    for (int i = 0; i < ITEMS; i++) {
      items.add(item(i));
    }
    long start = System.nanoTime();
    JsonNode ran = server.api("/webhook/subagent/run", run);
    long took = System.nanoTime() - start;
    check(ran, ITEMS);
    return took;
  }

  /** As many sessions created and sent by hand, one after another, until every turn ended. */
  private long byHandMany() throws Exception {
    long start = System.nanoTime();
    List<String> sessions = new ArrayList<>();
    for (int i = 0; i < ITEMS; i++) {
      String session = server.session(agent, work);
      send(session);
      sessions.add(session);
    }
    for (String session : sessions) {
      server.awaitIdle(session);
    }
    return System.nanoTime() - start;
  }

  private void send(String session) throws Exception {
    ObjectNode send = StdioClient.MAPPER.createObjectNode();
    send.put("session", session).put("text", "work");
    server.api("/api/sessions/send", send);
  }

  private static void check(JsonNode ran, int agents) throws java.io.IOException {
    JsonNode outcomes = ran.path("agents");
    if (outcomes.size() != agents) {
      throw new java.io.IOException("the call answered " + ran);
    }
    for (JsonNode outcome : outcomes) {
      if (!outcome.path("status").asString().equals("completed")) {
        throw new java.io.IOException("a subagent did not complete: " + ran);
      }
    }
  }

  static String report(
      int calls,
      int warmup,
      Stats firstTurn,
      Stats answered,
      Stats hand,
      Stats fanned,
      Stats handMany) {
    StringBuilder out = new StringBuilder();
    out.append("# Delegating to subagents, against the same sessions started by hand\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%d measured rounds after %d warm-up rounds; each round runs the four series in turn."
                + " Every turn is a command-backend script that ends at once.%n%n",
            calls,
            warmup));
    out.append(
        "| what | p50 ms | p90 ms | p99 ms | max ms | mean ms |\n|---|---|---|---|---|---|\n");
    AgentServerBench.row(out, "agent (one subagent) → the child's first turn read", firstTurn);
    AgentServerBench.row(out, "agent (one subagent) → its answer", answered);
    AgentServerBench.row(out, "by hand: create + send a session → its turn read", hand);
    AgentServerBench.row(out, "agent, parallel of " + ITEMS + " → its answer", fanned);
    AgentServerBench.row(
        out, "by hand: " + ITEMS + " sessions created + sent → every turn ended", handMany);
    out.append(
        String.format(
            Locale.ROOT,
            "%nRatios of medians: agent first turn / by hand = %.2f; parallel of %d / by hand ="
                + " %.2f.%n",
            (double) firstTurn.p50() / hand.p50(),
            ITEMS,
            (double) fanned.p50() / handMany.p50()));
    return out.toString();
  }
}
