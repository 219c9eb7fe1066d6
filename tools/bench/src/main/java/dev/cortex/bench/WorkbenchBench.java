package dev.cortex.bench;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Measures the web workbench from an agent's side to a person's: how soon a text chunk the agent
 * writes appears in an open session page in headless Chromium, against how soon the same chunk
 * reaches a plain server-sent-events client of {@code /api/ui/events} (the stream the page reads),
 * chunk by chunk in the same turn; and the first load of a session page whose transcript holds
 * 5,000 entries, against one of 50 entries, alternating.
 *
 * <p>The agent is a {@code command}-backend script that writes one chunk each time the harness
 * writes a line to its FIFO, stamping the chunk with {@code $EPOCHREALTIME} just before it prints
 * it. The page and the SSE client compare that stamp with their own wall clock (the page: {@code
 * performance.timeOrigin + performance.now()}, seen by a {@code MutationObserver} the harness
 * installs), so both latencies share one clock, the machine's.
 */
public final class WorkbenchBench {
  static final String USAGE =
      "usage: tools/bench/workbench [--calls N] [--warmup W] [--launcher PATH]\n"
          + "  --calls N     measured chunks (default 200); also the rounds of first loads / 10\n"
          + "  --warmup W    unmeasured chunks first (default 20)\n"
          + "  --launcher P  bin/cortex of this checkout (default: found from the working directory)";

  private static final Duration LIMIT = Duration.ofSeconds(60);
  private static final Pattern CHUNK = Pattern.compile("chunk (\\d+) @(\\d+)");
  private static final HttpClient HTTP =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final String OBSERVER =
      "window.__seen = {};"
          + "const re = /chunk (\\d+) @(\\d+)/g;"
          + "const scan = (text) => { if (!text) return; let m; re.lastIndex = 0;"
          + " while ((m = re.exec(text)) !== null) { if (!(m[1] in window.__seen)) {"
          + " window.__seen[m[1]] = Math.round((performance.timeOrigin + performance.now()) * 1000)"
          + " - Number(m[2]); } } };"
          + "new MutationObserver((records) => { for (const r of records) {"
          + " if (r.type === 'characterData') { scan(r.target.data); }"
          + " for (const n of r.addedNodes) { scan(n.textContent); } } })"
          + ".observe(document.body, {childList: true, subtree: true, characterData: true});";

  private final Map<Integer, Long> streamed = new ConcurrentHashMap<>();
  private int webhook;
  private String uiUrl;
  private String token;
  private Path launcher;
  private Path home;

  private WorkbenchBench() {}

  public static void main(String[] args) throws Exception {
    AgentServerBench.main(
        args, USAGE, 200, 20, "cortex-workbench-bench", new WorkbenchBench()::run);
    System.exit(0);
  }

  private String run(Path launcher, Path work, int calls, int warmup, List<Process> children)
      throws Exception {
    this.launcher = launcher;
    home = Files.createDirectories(work.resolve("server"));
    Files.writeString(
        Files.createDirectories(home.resolve("config")).resolve("cortex.toml"), "[ui]\nport = 0\n");
    Path fifo = work.resolve("chunks.fifo");
    if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() != 0) {
      throw new IOException("mkfifo failed");
    }
    Path agent = work.resolve("agent.sh");
    Files.writeString(
        agent,
        "#!/usr/bin/env bash\n"
            + "IFS= read -r turn\n"
            + "case \"$turn\" in\n"
            + "  *'\"prompt\":\"fill '*)\n"
            + "    n=${turn#*\\\"prompt\\\":\\\"fill }; n=${n%%\\\"*}\n"
            + "    for ((i = 1; i <= n; i++)); do\n"
            + "      printf '{\"type\":\"text\",\"text\":\"entry %d of %d\"}\\n' \"$i\" \"$n\"\n"
            + "    done ;;\n"
            + "  *)\n"
            + "    exec 3<"
            + fifo
            + "\n"
            + "    while IFS= read -r go <&3 && [[ \"$go\" != end ]]; do\n"
            + "      t=${EPOCHREALTIME/./}\n"
            + "      printf '{\"type\":\"text\",\"text\":\"chunk %s @%s\"}\\n' \"$go\" \"$t\"\n"
            + "    done ;;\n"
            + "esac\n"
            + "printf '%s\\n' '{\"type\":\"end\",\"status\":\"completed\",\"result\":\"done\"}'\n");
    agent.toFile().setExecutable(true);

    AgentServerBench.progress("starting the agent server ...");
    children.add(
        AgentServerBench.start(
            List.of(launcher.toString(), "server", "--webhook-port=0", "--hub-port=0"),
            Map.of("CORTEX_HOME", home.toString()),
            work.resolve("server.log")));
    Path serverFile = home.resolve("data").resolve("server.json");
    AgentServerBench.await(
        () ->
            Files.isRegularFile(serverFile)
                && StdioClient.MAPPER.readTree(Files.readString(serverFile)).has("ui_url"),
        "the agent server");
    JsonNode self = StdioClient.MAPPER.readTree(Files.readString(serverFile));
    webhook = self.path("webhook_port").asInt();
    uiUrl = self.path("ui_url").asString();
    token = Files.readString(home.resolve("config").resolve("webhook-token")).strip();

    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(
                Path.of(env("CORTEX_CHROMEDRIVER", "/usr/bin/chromedriver")).toFile())
            .build();
    ChromeOptions options = new ChromeOptions();
    options.setBinary(env("CORTEX_CHROMIUM", "/usr/bin/chromium"));
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--window-size=1280,900",
        "--user-data-dir=" + Files.createDirectories(work.resolve("chromium")));
    ChromeDriver browser = new ChromeDriver(service, options);
    try {
      browser.get(link());
      AgentServerBench.await(
          () -> !browser.getCurrentUrl().contains("/signin"), "the sign-in in the page");
      String cookie = signIn();

      String chunks = create(agent, work, "chunks");
      openSession(browser, chunks);
      Thread sse = follow(chunks, cookie);
      send(chunks, "stream");
      AgentServerBench.progress(
          "measuring: " + warmup + " warm-up and " + calls + " measured chunks ...");
      long[] page = new long[calls];
      long[] stream = new long[calls];
      try (OutputStream go = new FileOutputStream(fifo.toFile())) {
        for (int i = 1; i <= warmup + calls; i++) {
          go.write((i + "\n").getBytes(StandardCharsets.UTF_8));
          go.flush();
          int n = i;
          AgentServerBench.await(
              () -> streamed.containsKey(n) && seen(browser, n) != null, "chunk " + n);
          if (i > warmup) {
            page[i - warmup - 1] = seen(browser, n) * 1_000;
            stream[i - warmup - 1] = streamed.get(n) * 1_000;
          }
          Thread.sleep(20);
        }
        go.write("end\n".getBytes(StandardCharsets.UTF_8));
      }
      sse.interrupt();
      awaitIdle(chunks);

      int rounds = Math.max(3, calls / 10);
      AgentServerBench.progress("filling two sessions (5,000 and 50 entries) ...");
      String large = create(agent, work, "large");
      send(large, "fill 5000");
      awaitIdle(large);
      String small = create(agent, work, "small");
      send(small, "fill 50");
      awaitIdle(small);
      AgentServerBench.progress("measuring: " + rounds + " first loads of each ...");
      long[] largeLoads = new long[rounds];
      long[] smallLoads = new long[rounds];
      for (int i = 0; i < rounds; i++) {
        largeLoads[i] = firstLoad(browser, large, "entry 5000 of 5000");
        smallLoads[i] = firstLoad(browser, small, "entry 50 of 50");
      }
      return report(
          calls,
          warmup,
          Stats.of(page),
          Stats.of(stream),
          rounds,
          Stats.of(largeLoads),
          Stats.of(smallLoads));
    } finally {
      browser.quit();
    }
  }

  private static String env(String name, String fallback) {
    String value = System.getenv(name);
    return value == null || value.isBlank() ? fallback : value;
  }

  /** A one-time sign-in link, as {@code cortex ui --json} prints it. */
  private String link() throws Exception {
    ProcessBuilder command =
        new ProcessBuilder(launcher.toString(), "ui", "--json")
            .redirectError(ProcessBuilder.Redirect.DISCARD);
    command.environment().put("CORTEX_HOME", home.toString());
    Process ui = command.start();
    ui.getOutputStream().close();
    String out = new String(ui.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (ui.waitFor() != 0) {
      throw new IOException("cortex ui --json failed: " + out);
    }
    return StdioClient.MAPPER.readTree(out).path("url").asString();
  }

  /** A cookie session of the harness's own, for its SSE client. */
  private String signIn() throws Exception {
    String url = link();
    String secret = url.substring(url.indexOf('#') + 1);
    HttpResponse<String> answer =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(uiUrl + "/api/ui/signin"))
                .timeout(LIMIT)
                .header("Content-Type", "application/json")
                .header("Origin", uiUrl)
                .header("x-cortex-csrf", "signin")
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        StdioClient.MAPPER.writeValueAsString(Map.of("link", secret))))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    String cookie = answer.headers().firstValue("set-cookie").orElse(null);
    if (answer.statusCode() != 200 || cookie == null) {
      throw new IOException("the sign-in failed: " + answer.statusCode() + " " + answer.body());
    }
    return cookie.substring(0, cookie.indexOf(';'));
  }

  /** Reads the session's events on a thread of its own, noting when each chunk arrived. */
  private Thread follow(String session, String cookie) {
    Thread reader =
        new Thread(
            () -> {
              try {
                HttpResponse<InputStream> answer =
                    HTTP.send(
                        HttpRequest.newBuilder(
                                URI.create(uiUrl + "/api/ui/events?session=" + session))
                            .header("Cookie", cookie)
                            .header("Accept", "text/event-stream")
                            .build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                try (BufferedReader lines =
                    new BufferedReader(
                        new InputStreamReader(answer.body(), StandardCharsets.UTF_8))) {
                  String line;
                  while ((line = lines.readLine()) != null) {
                    if (line.startsWith("data:")) {
                      long now = micros(Instant.now());
                      Matcher m = CHUNK.matcher(line);
                      while (m.find()) {
                        streamed.putIfAbsent(
                            Integer.parseInt(m.group(1)), now - Long.parseLong(m.group(2)));
                      }
                    }
                  }
                }
              } catch (IOException e) {
                AgentServerBench.progress("the event stream ended: " + e.getMessage());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "sse");
    reader.setDaemon(true);
    reader.start();
    return reader;
  }

  private static long micros(Instant at) {
    return at.getEpochSecond() * 1_000_000 + at.getNano() / 1_000;
  }

  private void openSession(ChromeDriver browser, String session) throws Exception {
    browser.get(uiUrl + "/#/s/" + session);
    AgentServerBench.await(
        () ->
            Boolean.TRUE.equals(
                ((JavascriptExecutor) browser)
                    .executeScript("return document.readyState === 'complete'")),
        "the session page");
    ((JavascriptExecutor) browser).executeScript(OBSERVER);
  }

  /** Microseconds from the chunk's stamp to its appearance in the page, or null if not yet. */
  private static Long seen(ChromeDriver browser, int chunk) {
    Object value =
        ((JavascriptExecutor) browser)
            .executeScript("return window.__seen ? window.__seen[arguments[0]] : null", "" + chunk);
    return value == null ? null : ((Number) value).longValue();
  }

  /** Nanoseconds from asking for the page until {@code last} shows in it. */
  private long firstLoad(ChromeDriver browser, String session, String last) throws Exception {
    browser.get("about:blank");
    long start = System.nanoTime();
    browser.get(uiUrl + "/#/s/" + session);
    JavascriptExecutor js = browser;
    long deadline = start + LIMIT.toNanos();
    while (!Boolean.TRUE.equals(
        js.executeScript(
            "return document.body !== null && document.body.innerText.includes(arguments[0])",
            last))) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the page never showed '" + last + "'");
      }
      Thread.sleep(2);
    }
    return System.nanoTime() - start;
  }

  private String create(Path agent, Path work, String name) throws Exception {
    ObjectNode create = StdioClient.MAPPER.createObjectNode().put("backend", "command");
    create.put("name", name);
    create.putArray("program").add(agent.toString());
    create.put("working_dir", work.toString());
    return api("/api/sessions/create", create).path("id").asString();
  }

  private void send(String session, String text) throws Exception {
    ObjectNode send = StdioClient.MAPPER.createObjectNode().put("session", session);
    send.put("text", text);
    api("/api/sessions/send", send);
  }

  private void awaitIdle(String session) throws Exception {
    ObjectNode show = StdioClient.MAPPER.createObjectNode().put("session", session);
    long deadline = System.nanoTime() + LIMIT.toNanos();
    while (!api("/api/sessions/show", show).path("state").asString().equals("idle")) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the session's turn did not end");
      }
      Thread.sleep(5);
    }
  }

  private JsonNode api(String path, ObjectNode body) throws Exception {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + webhook + path))
                .timeout(LIMIT)
                .header("Content-Type", "application/json")
                .header("x-cortex-token", token)
                .POST(
                    HttpRequest.BodyPublishers.ofString(
                        StdioClient.MAPPER.writeValueAsString(body), StandardCharsets.UTF_8))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    JsonNode answer = StdioClient.MAPPER.readTree(response.body());
    if (!answer.has("result")) {
      throw new IOException(path + " failed: " + response.body());
    }
    return answer.path("result");
  }

  static String report(
      int calls,
      int warmup,
      Stats page,
      Stats stream,
      int rounds,
      Stats largeLoads,
      Stats smallLoads) {
    StringBuilder out = new StringBuilder();
    out.append(
        "# The web workbench: an agent's text in an open page, and a long session's first load\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "%d measured chunks after %d warm-up chunks, one at a time, in one turn of a command-backend"
                + " agent; the page is a session page in headless Chromium; the reference is a plain"
                + " SSE client of the same stream in the harness.%n%n",
            calls,
            warmup));
    out.append(
        "| what | p50 ms | p90 ms | p99 ms | max ms | mean ms |\n|---|---|---|---|---|---|\n");
    AgentServerBench.row(out, "agent writes a chunk → it shows in the open page", page);
    AgentServerBench.row(out, "agent writes a chunk → an SSE client has it (reference)", stream);
    out.append(
        String.format(
            Locale.ROOT,
            "%nRatio of medians: page / SSE client = %.2f (the page's share over the stream: %.2f ms"
                + " at p50).%n%n",
            (double) page.p50() / Math.max(1, stream.p50()),
            (page.p50() - stream.p50()) / 1e6));
    out.append(
        String.format(
            Locale.ROOT,
            "First load of a session page until its newest entry shows, %d rounds each, alternating:%n%n",
            rounds));
    out.append(
        "| what | p50 ms | p90 ms | p99 ms | max ms | mean ms |\n|---|---|---|---|---|---|\n");
    AgentServerBench.row(out, "session of 5,000 transcript entries", largeLoads);
    AgentServerBench.row(out, "session of 50 transcript entries (reference)", smallLoads);
    out.append(
        String.format(
            Locale.ROOT,
            "%nRatio of medians: 5,000 / 50 entries = %.2f.%n",
            (double) largeLoads.p50() / Math.max(1, smallLoads.p50())));
    return out.toString();
  }
}
