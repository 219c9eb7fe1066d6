package dev.cortex.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A {@code cortex mcp --http 0} subprocess and the URL it announced on stderr. */
final class HttpServer implements AutoCloseable {
  private static final Pattern SERVING = Pattern.compile("serving MCP at (http://\\S+/mcp)");

  final Process process;
  final String url;
  final int port;
  final StringBuffer stderr = new StringBuffer();

  private HttpServer(Process process, String url) {
    this.process = process;
    this.url = url;
    this.port = java.net.URI.create(url).getPort();
  }

  static HttpServer start(Map<String, String> env, String... extraArgs) throws Exception {
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
    HttpServer server = new HttpServer(process, url.get(120, TimeUnit.SECONDS));
    server.stderr.append(log);
    return server;
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }
}
