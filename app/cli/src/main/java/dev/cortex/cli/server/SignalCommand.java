package dev.cortex.cli.server;

import dev.cortex.base.CodedException;
import dev.cortex.base.Json;
import dev.cortex.cli.CortexCommand;
import dev.cortex.cli.Io;
import dev.cortex.cli.Version;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Spool;
import dev.cortex.protocol.webhook.Webhook;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

/**
 * {@code cortex signal}: reports to a waitpoint, through the agent server's {@code POST
 * /webhook/signal}; when the server cannot be reached, the signal is written to the spool instead,
 * from where the server (or, on a device, the client's hub connection) takes it later.
 */
@Command(
    name = "signal",
    mixinStandardHelpOptions = true,
    description = {
      "Signals a waitpoint that a session of the agent server waits on. The id and secret come"
          + " from wait_create's recipe, or from CORTEX_WAIT_ID and CORTEX_WAIT_SECRET.",
      "Exit status: 0 taken (or already resolved, or written to the spool), 1 refused or not"
          + " delivered, 2 bad usage."
    })
public final class SignalCommand implements Callable<Integer> {
  private static final Duration CONNECT = Duration.ofSeconds(3);
  private static final Duration ANSWER = Duration.ofSeconds(20);

  private final Io io;

  public SignalCommand(Io io) {
    this.io = io;
  }

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "ID",
      description = "The waitpoint, e.g. wp-3fa2c1d0e4b5 (default: $CORTEX_WAIT_ID).")
  String id;

  @Option(
      names = "--secret",
      paramLabel = "SECRET",
      description = "The waitpoint's secret (default: $CORTEX_WAIT_SECRET).")
  String secret;

  @Option(
      names = "--status",
      paramLabel = "STATUS",
      description = "ok (default), fail, or progress (recorded, never wakes the session).")
  String status;

  @Option(
      names = "--exit-code",
      paramLabel = "N",
      description = "A command's exit code: 0 signals ok, anything else fail; sets the message.")
  Integer exitCode;

  @Option(
      names = "--message",
      paramLabel = "TEXT",
      description = "What happened, up to 4,000 characters.")
  String message;

  @Option(names = "--member", paramLabel = "NAME", description = "Who reports, when several do.")
  String member;

  @Option(
      names = "--data",
      paramLabel = "@FILE|-|JSON",
      description = "JSON that goes along (up to 16 KB): inline, @FILE, or - for standard input.")
  String data;

  @Option(
      names = "--signal-id",
      paramLabel = "ID",
      description = "The signal's own id: the same id twice counts once (default: a new one).")
  String signalId;

  @Option(
      names = "--url",
      paramLabel = "URL",
      description =
          "The agent server's webhook, e.g. http://127.0.0.1:3001 (default: $CORTEX_SIGNAL_URL,"
              + " else the running server of CORTEX_HOME).")
  String url;

  @Option(
      names = "--no-spool",
      description = "Fail (exit 1) when the server cannot be reached, instead of spooling.")
  boolean noSpool;

  @Option(
      names = "--spool",
      description =
          "Write the signal to the spool without trying the server (on a device: its client"
              + " sends it over the hub).")
  boolean spoolOnly;

  @Option(names = "--json", description = "Print the server's answer as JSON.")
  boolean json;

  @Override
  public Integer call() {
    Signals.Signal signal;
    try {
      signal = signal();
    } catch (IllegalArgumentException e) {
      return CortexCommand.usage(io, "cortex signal: " + e.getMessage());
    }
    Spool spool = new Spool(io.home().root().resolve(Spool.DIR));
    if (spoolOnly) {
      return spooled(spool, signal, null);
    }
    URI target;
    try {
      target = target();
    } catch (IllegalArgumentException e) {
      return CortexCommand.usage(io, "cortex signal: " + e.getMessage());
    }
    HttpResponse<String> response;
    try {
      response = send(target, signal);
    } catch (IOException e) {
      String why = unreachable(e);
      if (noSpool) {
        io.err().println("cortex signal: the agent server at " + target + " " + why + ".");
        return CortexCommand.FAILED;
      }
      return spooled(spool, signal, "the agent server at " + target + " " + why);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CortexCommand.FAILED;
    }
    return answered(response);
  }

  private Signals.Signal signal() {
    String waitpoint = id != null ? id : io.env(Signals.ENV_ID);
    if (waitpoint == null || waitpoint.isBlank()) {
      throw new IllegalArgumentException(
          "name the waitpoint: cortex signal ID (or CORTEX_WAIT_ID).");
    }
    String key = secret != null ? secret : io.env(Signals.ENV_SECRET);
    if (key == null || key.isBlank()) {
      throw new IllegalArgumentException("give the waitpoint's --secret (or CORTEX_WAIT_SECRET).");
    }
    if (spoolOnly && noSpool) {
      throw new IllegalArgumentException("--spool and --no-spool exclude each other.");
    }
    String effectiveStatus = status;
    String effectiveMessage = message;
    if (exitCode != null) {
      if (status != null) {
        throw new IllegalArgumentException("give --status or --exit-code, not both.");
      }
      effectiveStatus = exitCode == 0 ? "ok" : "fail";
      if (effectiveMessage == null) {
        effectiveMessage = "exit code " + exitCode;
      }
    }
    Signals.Signal signal =
        new Signals.Signal(
            waitpoint.strip(),
            key.strip(),
            effectiveStatus,
            effectiveMessage,
            member,
            data(),
            signalId != null ? signalId : "sig-" + UUID.randomUUID());
    List<String> problems = Signals.problems(signal);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems) + ".");
    }
    return signal;
  }

  private JsonNode data() {
    if (data == null) {
      return null;
    }
    String text;
    try {
      if (data.equals("-")) {
        text = new String(io.in().readAllBytes(), StandardCharsets.UTF_8);
      } else if (data.startsWith("@")) {
        Path file = Path.of(data.substring(1));
        if (Files.size(file) > 4L * Signals.MAX_DATA_BYTES) {
          throw new IllegalArgumentException(
              "--data " + data + " is larger than " + Signals.MAX_DATA_BYTES + " bytes.");
        }
        text = Files.readString(file);
      } else {
        text = data;
      }
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot read --data " + data + ": " + e.getMessage());
    }
    try {
      return WireJson.mapper().readTree(text);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("--data is not JSON: " + e.getOriginalMessage());
    }
  }

  private URI target() {
    String base = url != null ? url : io.env(Signals.ENV_URL);
    if (base == null || base.isBlank()) {
      try {
        base = "http://127.0.0.1:" + io.agentServer().webhookPort();
      } catch (CodedException e) {
        throw new IllegalArgumentException(e.getMessage());
      }
    }
    URI uri;
    try {
      uri = URI.create(base.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--url " + base + " is not a URL.");
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())
        || uri.getHost() == null) {
      throw new IllegalArgumentException("--url must be http(s)://HOST:PORT, not " + base + ".");
    }
    String path = uri.getPath();
    if (path == null || path.isEmpty() || path.equals("/")) {
      uri = uri.resolve(Signals.ROUTE);
    }
    return uri;
  }

  private static HttpResponse<String> send(URI target, Signals.Signal signal)
      throws IOException, InterruptedException {
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
    HttpRequest request =
        HttpRequest.newBuilder(target)
            .timeout(ANSWER)
            .header("Content-Type", "application/json")
            .header("User-Agent", Signals.CLI_AGENT + "/" + Version.get())
            .header(Webhook.PROTOCOL_HEADER, Integer.toString(Webhook.PROTOCOL))
            .POST(
                HttpRequest.BodyPublishers.ofString(
                    WireJson.mapper().writeValueAsString(signal), StandardCharsets.UTF_8))
            .build();
    return client.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
  }

  private static String unreachable(IOException e) {
    if (e instanceof HttpConnectTimeoutException) {
      return "did not accept a connection within " + CONNECT.toSeconds() + " s";
    }
    if (e instanceof HttpTimeoutException) {
      return "did not answer within " + ANSWER.toSeconds() + " s";
    }
    if (e instanceof ConnectException) {
      return "is not reachable (connection refused)";
    }
    return "is not reachable (" + e.getClass().getSimpleName() + ")";
  }

  private int spooled(Spool spool, Signals.Signal signal, String why) {
    Path file;
    try {
      file = spool.write(signal);
    } catch (RuntimeException e) {
      io.err().println("cortex signal: cannot write to the spool " + spool.dir() + ".");
      return CortexCommand.FAILED;
    }
    if (why != null) {
      io.err().println("cortex signal: " + why + ".");
    }
    io.out()
        .println(
            "Spooled: the signal waits in "
                + file
                + " and is taken when the agent server runs (on a device: when its client is"
                + " connected).");
    return CortexCommand.OK;
  }

  private int answered(HttpResponse<String> response) {
    JsonNode body;
    try {
      body = Json.mapper().readTree(response.body());
    } catch (JacksonException e) {
      body = null;
    }
    if (body != null && body.has("result")) {
      JsonNode result = body.path("result");
      if (json) {
        io.out().println(Json.write(result));
      } else {
        io.out()
            .println(
                result.path("outcome").asString("") + ": " + result.path("message").asString(""));
      }
      return CortexCommand.OK;
    }
    if (body != null && body.has("error")) {
      JsonNode error = body.path("error");
      if (json) {
        io.out().println(Json.write(error));
      }
      io.err()
          .println(
              "cortex signal: "
                  + error.path("code").asString("REFUSED")
                  + ": "
                  + error.path("message").asString(""));
      return CortexCommand.FAILED;
    }
    io.err()
        .println(
            "cortex signal: the agent server answered HTTP "
                + response.statusCode()
                + " without a usable body; is "
                + response.uri()
                + " a Cortex server?");
    return CortexCommand.FAILED;
  }
}
