package dev.cortex.workflows.consent;

import dev.cortex.mcp.Elicitor;
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
 *   <li>{@code CORTEX_CONFIRM_GRACE_SECONDS}: 0–300; when set, a channel that has not been answered
 *       within it is joined by the next one (default unset: the next channel is used only when the
 *       earlier ones cannot ask or fail);
 *   <li>{@code CORTEX_MCP_DISABLE_NATIVE_CONFIRM=1}: no native dialog.
 * </ul>
 *
 * Nobody answering within five minutes is a refusal; only the test-only JVM system property {@code
 * cortex.test.confirmTimeoutMillis} can shorten that, never lengthen it.
 */
public record ConsentSettings(List<String> channels, Duration grace, Duration timeout) {
  public static final String CHANNELS = "CORTEX_CONFIRM_CHANNELS";
  public static final String GRACE = "CORTEX_CONFIRM_GRACE_SECONDS";
  public static final Duration TIMEOUT = Duration.ofMinutes(5);
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
        channels(env.get(CHANNELS)), grace(env.get(GRACE)), shortenedTimeout());
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

  private static Duration grace(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      int seconds = Integer.parseInt(value.strip());
      if (seconds >= 0 && seconds <= 300) {
        return Duration.ofSeconds(seconds);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        GRACE + "='" + value + "': give a whole number of seconds from 0 to 300");
  }

  private static Duration shortenedTimeout() {
    Long millis = Long.getLong(TIMEOUT_PROPERTY);
    if (millis == null || millis <= 0) {
      return TIMEOUT;
    }
    Duration shorter = Duration.ofMillis(millis);
    return shorter.compareTo(TIMEOUT) < 0 ? shorter : TIMEOUT;
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
