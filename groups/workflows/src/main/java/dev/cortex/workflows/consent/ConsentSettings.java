package dev.cortex.workflows.consent;

import dev.cortex.mcp.caller.Elicitor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How {@code cortex mcp} asks its human, from the environment:
 *
 * <ul>
 *   <li>{@code CORTEX_CONFIRM_CHANNELS}: the channels in order, a comma list of {@code elicitation}
 *       and {@code native} (default {@code elicitation,native});
 *   <li>{@code CORTEX_CONFIRM_GRACE_SECONDS}: 0–300 (default {@value #DEFAULT_GRACE_SECONDS}); a
 *       channel that has not been answered within it is joined by the next one, so that a client
 *       that declares elicitation but never shows the form still gets its human asked;
 *   <li>{@code CORTEX_CONFIRM_TIMEOUT_SECONDS}: 1–300 (default {@value #DEFAULT_TIMEOUT_SECONDS}):
 *       how long one call waits for its answers in all, trust and run together, kept by default
 *       inside the 60 seconds many clients give a tool call;
 *   <li>{@code CORTEX_MCP_DISABLE_NATIVE_CONFIRM=1}: no native dialog.
 * </ul>
 *
 * Nobody answering within the wait is a refusal. Five minutes is the ceiling; the test-only JVM
 * system property {@code cortex.test.confirmTimeoutMillis} can shorten the wait, never lengthen it.
 */
public record ConsentSettings(List<String> channels, Duration grace, Duration timeout) {
  public static final String CHANNELS = "CORTEX_CONFIRM_CHANNELS";
  public static final String GRACE = "CORTEX_CONFIRM_GRACE_SECONDS";
  public static final String WAIT = "CORTEX_CONFIRM_TIMEOUT_SECONDS";

  /** The longest a call may wait for its human: the seed's five minutes. */
  public static final Duration TIMEOUT = Duration.ofMinutes(5);

  /** How long a channel is alone before the next joins it, unless set. */
  public static final int DEFAULT_GRACE_SECONDS = 10;

  /** How long a call waits for its answers, unless set: inside a 60-second client limit. */
  public static final int DEFAULT_TIMEOUT_SECONDS = 45;

  static final String TIMEOUT_PROPERTY = "cortex.test.confirmTimeoutMillis";
  private static final List<String> KNOWN = List.of(ElicitationChannel.NAME, NativeDialog.NAME);

  public ConsentSettings {
    channels = List.copyOf(channels);
  }

  /**
   * Reads the settings.
   *
   * @throws IllegalArgumentException naming the variable and what it accepts
   */
  public static ConsentSettings fromEnvironment(Map<String, String> env) {
    return new ConsentSettings(
        channels(env.get(CHANNELS)),
        Duration.ofSeconds(seconds(GRACE, env.get(GRACE), 0, DEFAULT_GRACE_SECONDS)),
        shortened(Duration.ofSeconds(seconds(WAIT, env.get(WAIT), 1, DEFAULT_TIMEOUT_SECONDS))));
  }

  private static List<String> channels(String value) {
    if (value == null || value.isBlank()) {
      return KNOWN;
    }
    List<String> channels = new ArrayList<>();
    for (String part : value.split(",")) {
      String name = part.strip().toLowerCase(Locale.ROOT);
      if (!KNOWN.contains(name) || channels.contains(name)) {
        throw new IllegalArgumentException(
            CHANNELS
                + "='"
                + value
                + "': give the confirmation channels in order, each once, from: "
                + String.join(", ", KNOWN));
      }
      channels.add(name);
    }
    return channels;
  }

  private static int seconds(String variable, String value, int least, int otherwise) {
    if (value == null || value.isBlank()) {
      return otherwise;
    }
    try {
      int seconds = Integer.parseInt(value.strip());
      if (seconds >= least && seconds <= TIMEOUT.toSeconds()) {
        return seconds;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        variable
            + "='"
            + value
            + "': give a whole number of seconds from "
            + least
            + " to "
            + TIMEOUT.toSeconds());
  }

  /** {@code wait}, or the test property's shorter one. */
  private static Duration shortened(Duration wait) {
    Long millis = Long.getLong(TIMEOUT_PROPERTY);
    if (millis == null || millis <= 0) {
      return wait;
    }
    Duration shorter = Duration.ofMillis(millis);
    return shorter.compareTo(wait) < 0 ? shorter : wait;
  }

  /**
   * The MCP server's policy: each call asks through these channels, elicitation when the call's
   * client offers it, native dialogs with {@code env} on this operating system.
   */
  public ConsentPolicy policy(Map<String, String> env, String osName) {
    NativeDialog dialog = new NativeDialog(env, osName);
    return elicitor -> new ChannelConsent(order(elicitor, dialog), grace, timeout);
  }

  private List<Channel> order(Optional<Elicitor> elicitor, NativeDialog dialog) {
    List<Channel> order = new ArrayList<>();
    for (String name : channels) {
      order.add(name.equals(NativeDialog.NAME) ? dialog : new ElicitationChannel(elicitor));
    }
    return order;
  }
}
