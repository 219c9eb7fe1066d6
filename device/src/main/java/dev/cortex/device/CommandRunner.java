package dev.cortex.device;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CancellationSignal;
import dev.cortex.base.Deadline;
import dev.cortex.base.HopTrace;
import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.hub.Action;
import dev.cortex.protocol.hub.Actions;
import dev.cortex.protocol.hub.HubMessage;
import dev.cortex.protocol.webhook.ErrorBody;
import dev.cortex.protocol.webhook.ErrorBody.Codes;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

/**
 * Carries out the hub's commands, each on a thread of its own: turns the command's timeout into its
 * {@link Deadline} (the hub stops waiting then), binds its parameters, runs the action, streams
 * output, and answers exactly one result. A cancel stops the command's process group; the result
 * then says so (the hub has usually stopped waiting).
 */
final class CommandRunner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CommandRunner.class);

  /** Commands run at once, at most; more are refused until some finish. */
  static final int MAX_RUNNING = 64;

  private final ShellAction shell;
  private final FileActions files;
  private final GlobAction glob;
  private final GrepAction grep;
  private final Jobs jobs;
  private final Clock clock;
  private final ExecutorService threads;
  private final Semaphore slots = new Semaphore(MAX_RUNNING);
  private final Map<String, CancellationSignal> running = new ConcurrentHashMap<>();

  CommandRunner(
      ShellAction shell,
      FileActions files,
      GlobAction glob,
      GrepAction grep,
      Jobs jobs,
      Clock clock) {
    this.shell = shell;
    this.files = files;
    this.glob = glob;
    this.grep = grep;
    this.jobs = jobs;
    this.clock = clock;
    this.threads =
        Executors.newCachedThreadPool(
            r -> {
              Thread thread = new Thread(r, "cortex-device-command");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Starts {@code command}; {@code send} takes the messages it produces (output, result). */
  void submit(HubMessage.Command command, Consumer<HubMessage> send) {
    if (!slots.tryAcquire()) {
      send.accept(
          new HubMessage.Result(
              command.id(),
              null,
              new ErrorBody(
                  Codes.UNAVAILABLE,
                  "The device is running " + MAX_RUNNING + " commands already; retry shortly.")));
      return;
    }
    CancellationSignal signal = new CancellationSignal();
    running.put(command.id(), signal);
    threads.execute(
        () -> {
          try {
            HopTrace.mark(command.id(), "device.run");
            HubMessage.Result result =
                run(
                    command,
                    signal,
                    (stream, data) ->
                        send.accept(new HubMessage.Output(command.id(), stream, data)));
            HopTrace.mark(command.id(), "device.answer");
            send.accept(result);
          } finally {
            running.remove(command.id());
            slots.release();
          }
        });
  }

  /** Stops the command {@code id}, if it still runs. */
  void cancel(String id) {
    CancellationSignal signal = running.get(id);
    if (signal != null) {
      signal.cancel();
    }
  }

  /** Stops every running command (the connection is gone or the client stops). */
  void cancelAll() {
    running.values().forEach(CancellationSignal::cancel);
  }

  private HubMessage.Result run(
      HubMessage.Command command, Cancellation cancellation, BiConsumer<String, String> output) {
    Action action = Action.of(command.action());
    if (action == null) {
      return failed(
          command,
          Codes.UNSUPPORTED,
          "This device does not know the action '" + command.action() + "'.");
    }
    if (command.timeoutMillis() <= 0) {
      return failed(
          command,
          Codes.INVALID_ARGUMENT,
          "A command needs a timeout_millis above 0; got " + command.timeoutMillis() + ".");
    }
    Deadline deadline = Deadline.after(Duration.ofMillis(command.timeoutMillis()), clock);
    try {
      Object params = WireJson.bind(command.params(), action.params());
      Object result =
          switch (action) {
            case BASH -> shell.run((Actions.Bash) params, cancellation, output);
            case READ -> files.read((Actions.Read) params);
            case WRITE -> files.write((Actions.Write) params);
            case EDIT -> files.edit((Actions.Edit) params);
            case GLOB -> glob.glob((Actions.Glob) params, deadline);
            case GREP -> grep.grep((Actions.Grep) params, deadline);
            case JOB -> jobs.handle((Actions.Job) params);
            case READ_BYTES -> files.readBytes((Actions.ReadBytes) params);
          };
      JsonNode tree = WireJson.tree(result);
      return new HubMessage.Result(command.id(), tree, null);
    } catch (ActionException e) {
      return new HubMessage.Result(command.id(), null, e.body());
    } catch (IllegalArgumentException e) {
      return failed(
          command,
          Codes.INVALID_ARGUMENT,
          "The parameters of " + command.action() + " are malformed: " + e.getMessage());
    } catch (RuntimeException e) {
      log.error("{} {} failed", command.action(), command.id(), e);
      return failed(
          command,
          Codes.INTERNAL,
          command.action() + " failed on the device; its log has the details.");
    }
  }

  private static HubMessage.Result failed(HubMessage.Command command, String code, String message) {
    return new HubMessage.Result(command.id(), null, new ErrorBody(code, message));
  }

  @Override
  public void close() {
    cancelAll();
    threads.shutdown();
  }
}
