package dev.cortex.server.waitpoints;

import dev.cortex.protocol.WireJson;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Waits;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Ready-made ways to signal a waitpoint, so that an agent never has to compose one: the {@code
 * cortex signal} line, its environment, the same signal with {@code curl}, and a line that signals
 * with a command's exit code; with a device, the same on that device, where the signal goes to the
 * client's spool and travels over its hub connection.
 */
public final class Recipes {
  private Recipes() {}

  /**
   * Where signals are sent from this machine.
   *
   * @param launcher the {@code cortex} command
   * @param home the server's Cortex home: its spool, and the file that says its port
   * @param port the webhook's port, for curl
   */
  public record Local(String launcher, String home, int port) {}

  /**
   * What the server knows of a device: its {@code cortex} command and Cortex home, from its last
   * hello (null when it has not connected since the server started).
   */
  public record Device(String name, String launcher, String home) {}

  static final String PLACEHOLDER_COMMAND = "YOUR_COMMAND";
  static final String PLACEHOLDER_MEMBER = "MEMBER";

  public static Waits.Recipe of(Waitpoint w, String secret, Local local, Device device) {
    String member = w.members() == null ? "" : " --member " + PLACEHOLDER_MEMBER;
    String signal =
        prefix(local.home())
            + quote(local.launcher())
            + " signal "
            + w.id()
            + " --secret "
            + quote(secret)
            + member;
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("id", w.id());
    body.put("secret", secret);
    body.put("status", "ok");
    if (w.members() != null) {
      body.put("member", PLACEHOLDER_MEMBER);
    }
    body.put("message", "done");
    String curl =
        "curl -sS -X POST "
            + quote("http://127.0.0.1:" + local.port() + Signals.ROUTE)
            + " -H 'Content-Type: application/json' -d "
            + quote(WireJson.mapper().writeValueAsString(body));
    return new Waits.Recipe(
        signal + " --status ok --message 'done'",
        env(w, secret, local.home()),
        curl,
        PLACEHOLDER_COMMAND + "; " + signal + " --exit-code $?",
        note(w, null),
        device == null ? null : device(w, secret, device, member));
  }

  private static Waits.DeviceRecipe device(
      Waitpoint w, String secret, Device device, String member) {
    String launcher = device.launcher() != null ? quote(device.launcher()) : "cortex";
    String signal =
        prefix(device.home())
            + launcher
            + " signal "
            + w.id()
            + " --secret "
            + quote(secret)
            + " --spool"
            + member;
    return new Waits.DeviceRecipe(
        device.name(),
        signal + " --status ok --message 'done'",
        env(w, secret, device.home()),
        PLACEHOLDER_COMMAND + "; " + signal + " --exit-code $?",
        note(w, device));
  }

  private static Map<String, String> env(Waitpoint w, String secret, String home) {
    Map<String, String> env = new LinkedHashMap<>();
    if (home != null) {
      env.put("CORTEX_HOME", home);
    }
    env.put(Signals.ENV_ID, w.id());
    env.put(Signals.ENV_SECRET, secret);
    return env;
  }

  private static String note(Waitpoint w, Device device) {
    StringBuilder note = new StringBuilder();
    if (device != null) {
      note.append("Run these on ")
          .append(device.name())
          .append(" as the user its cortex client runs as");
      if (device.home() == null) {
        note.append(", with that client's CORTEX_HOME");
      }
      note.append(
          ": the signal waits in the client's spool and reaches the server over its hub"
              + " connection, at once when connected, else when it reconnects. ");
    }
    note.append("Replace ")
        .append(PLACEHOLDER_COMMAND)
        .append(" with the command to watch: exit code 0 signals ok, any other fail.");
    if (w.members() != null) {
      note.append(" Replace ")
          .append(PLACEHOLDER_MEMBER)
          .append(" with the reporting member: ")
          .append(String.join(", ", preview(w.members())))
          .append('.');
    }
    note.append(" --status progress --message '…' reports progress without waking the session.");
    return note.toString();
  }

  private static List<String> preview(List<String> members) {
    if (members.size() <= 10) {
      return members;
    }
    List<String> shown = new java.util.ArrayList<>(members.subList(0, 10));
    shown.add("… (" + members.size() + " in all)");
    return shown;
  }

  private static String prefix(String home) {
    return home == null ? "" : "CORTEX_HOME=" + quote(home) + " ";
  }

  /** One POSIX shell word. */
  static String quote(String word) {
    if (word.matches("[A-Za-z0-9_./:=@%+-]+")) {
      return word;
    }
    return "'" + word.replace("'", "'\\''") + "'";
  }
}
