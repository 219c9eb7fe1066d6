package dev.cortex.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code cortex mcp --http 0} subprocess, the URL it announced on stderr, and raw POSTs to it.
 */
public final class CortexHttp implements AutoCloseable {
  private static final Pattern SERVING = Pattern.compile("serving MCP at (http://\\S+/mcp)");
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  public final Process process;
  public final String url;
  public final int port;
  private final StringBuffer stderr;

  private CortexHttp(Process process, String url, StringBuffer stderr) {
    this.process = process;
    this.url = url;
    this.port = URI.create(url).getPort();
    this.stderr = stderr;
  }

  /** {@code cortex mcp --http 0 EXTRA...} with {@code env}, once it serves. */
  public static CortexHttp start(Map<String, String> env, String... extraArgs) throws Exception {
    String[] args = new String[3 + extraArgs.length];
    args[0] = "mcp";
    args[1] = "--http";
    args[2] = "0";
    System.arraycopy(extraArgs, 0, args, 3, extraArgs.length);
    Process process = CortexProcess.start(env, args);
    process.getOutputStream().close();
    CompletableFuture<String> url = new CompletableFuture<>();
    StringBuffer log = new StringBuffer();
    Thread pump =
        new Thread(
            () -> {
              try (BufferedReader reader =
                  new BufferedReader(
                      new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = reader.readLine()) != null) {
                  log.append(line).append('\n');
                  Matcher m = SERVING.matcher(line);
                  if (m.find()) {
                    url.complete(m.group(1));
                  }
                }
              } catch (IOException ignored) {
                // process ended
              }
              url.completeExceptionally(new IllegalStateException("server exited: " + log));
            });
    pump.setDaemon(true);
    pump.start();
    return new CortexHttp(process, url.get(120, TimeUnit.SECONDS), log);
  }

  /** What the server wrote to stderr so far. */
  public String stderr() {
    return stderr.toString();
  }

  /** POSTs {@code body} as an MCP client would, with extra headers as name, value pairs. */
  public HttpResponse<String> post(String body, String... headers) throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, text/event-stream")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i < headers.length; i += 2) {
      request.header(headers[i], headers[i + 1]);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Initializes a session (and sends {@code notifications/initialized}); returns its id. */
  public String session() throws Exception {
    HttpResponse<String> initialized = post(JsonRpcLines.INITIALIZE);
    String session =
        initialized
            .headers()
            .firstValue("Mcp-Session-Id")
            .orElseThrow(() -> new AssertionError("no session: " + initialized.body()));
    post(JsonRpcLines.INITIALIZED, "Mcp-Session-Id", session);
    return session;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
