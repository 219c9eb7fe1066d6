package dev.cortex.server.waitpoints;

import dev.cortex.protocol.hub.Machines;
import dev.cortex.protocol.webhook.Signals;
import dev.cortex.protocol.webhook.Waits;
import dev.cortex.storage.Database;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import tools.jackson.databind.JsonNode;

/**
 * Creating a waitpoint: the session must exist, every field is checked with a message that says
 * what to fix, and the waitpoint is inserted in one transaction with the check of the session's
 * limit, so that a refusal writes nothing.
 */
final class Creation {
  private final Supplier<Database> database;
  private final Waker waker;
  private final Clock clock;

  Creation(Supplier<Database> database, Waker waker, Clock clock) {
    this.database = database;
    this.waker = waker;
    this.clock = clock;
  }

  Waitpoints.Created create(Waits.Create request, Set<String> devices) {
    String sessionId = request.sessionId();
    if (sessionId == null || sessionId.isBlank()) {
      throw new WaitException(
          Waits.Codes.NO_SESSION,
          "A waitpoint wakes the session that created it, and this call comes from none"
              + " (CORTEX_SESSION_ID is not set): call wait_create from a session of the agent"
              + " server.");
    }
    if (!waker.knows(sessionId)) {
      throw new WaitException(
          Waits.Codes.NO_SESSION, "The agent server has no session " + sessionId + ".");
    }
    String label = line("label", request.label(), Waits.MAX_LABEL);
    String intent = text("intent", request.intent(), Waits.MAX_INTENT);
    List<String> members = members(request.members());
    int quorum = quorum(request.quorum(), members);
    int maxSignals = maxSignals(request.maxSignals());
    double hours = expiresInHours(request.expiresInHours());
    String device = device(request.device(), devices);
    Instant now = clock.instant();
    String secret = Secrets.secret();
    Waitpoint waitpoint =
        new Waitpoint(
            "wp-" + Secrets.hex(6),
            sessionId,
            label,
            intent,
            members,
            quorum,
            request.failFast() == null || request.failFast(),
            maxSignals,
            device,
            Secrets.sha256(secret),
            Waitpoint.State.OPEN,
            1,
            0,
            null,
            null,
            now,
            now.plusSeconds(Math.round(hours * 3600)),
            null);
    database
        .get()
        .write(
            c -> {
              if (WaitStore.waitingCount(c, sessionId) >= Waits.MAX_OPEN_PER_SESSION) {
                throw WaitException.invalid(
                    "This session waits on "
                        + Waits.MAX_OPEN_PER_SESSION
                        + " waitpoints already; cancel some (wait_cancel) first.");
              }
              WaitStore.insert(c, waitpoint);
              return null;
            });
    return new Waitpoints.Created(waitpoint, secret);
  }

  private static String line(String name, String value, int max) {
    String text = text(name, value, max);
    if (text.chars().anyMatch(ch -> ch < 0x20)) {
      throw WaitException.invalid(name + " must be one line without control characters.");
    }
    return text;
  }

  private static String text(String name, String value, int max) {
    if (value == null || value.isBlank()) {
      throw WaitException.invalid(name + " is required and must not be blank.");
    }
    String text = value.strip();
    if (text.length() > max) {
      throw WaitException.invalid(
          name + " has " + text.length() + " characters; at most " + max + " are allowed.");
    }
    return text;
  }

  private static List<String> members(List<String> given) {
    if (given == null) {
      return null;
    }
    if (given.isEmpty() || given.size() > Waits.MAX_MEMBERS) {
      throw WaitException.invalid(
          "members must list 1 to "
              + Waits.MAX_MEMBERS
              + " names (leave it out when anyone may signal).");
    }
    Set<String> seen = new HashSet<>();
    for (String member : given) {
      if (member == null || !Signals.MEMBER.matcher(member).matches()) {
        throw WaitException.invalid(
            "'"
                + Phrases.clip(member)
                + "' is not a member name: 1-64 letters, digits and . _ : @ -, starting with a"
                + " letter or digit.");
      }
      if (!seen.add(member)) {
        throw WaitException.invalid("members lists '" + member + "' twice.");
      }
    }
    return List.copyOf(given);
  }

  private static int quorum(JsonNode given, List<String> members) {
    if (given == null || given.isNull() || given.isMissingNode()) {
      return members == null ? 1 : members.size();
    }
    if (given.isString()) {
      if (!"all".equals(given.asString())) {
        throw WaitException.invalid(
            "quorum is a number or \"all\", not \"" + given.asString() + "\".");
      }
      if (members == null) {
        throw WaitException.invalid(
            "quorum \"all\" needs members: list who must report, or give a number.");
      }
      return members.size();
    }
    if (!given.isIntegralNumber() || !given.canConvertToInt()) {
      throw WaitException.invalid("quorum is a whole number or \"all\".");
    }
    int quorum = given.asInt();
    int max = members == null ? Waits.MAX_MEMBERS : members.size();
    if (quorum < 1 || quorum > max) {
      throw WaitException.invalid(
          "quorum must be 1 to "
              + max
              + (members == null ? "" : " (the number of members)")
              + ", not "
              + quorum
              + ".");
    }
    return quorum;
  }

  private static int maxSignals(Integer given) {
    int maxSignals = given == null ? 1 : given;
    if (maxSignals < 1 || maxSignals > Waits.MAX_SIGNALS) {
      throw WaitException.invalid(
          "max_signals must be 1 to " + Waits.MAX_SIGNALS + ", not " + maxSignals + ".");
    }
    return maxSignals;
  }

  private static double expiresInHours(Double given) {
    double hours = given == null ? Waits.DEFAULT_EXPIRES_HOURS : given;
    if (!(hours >= Waits.MIN_EXPIRES_HOURS && hours <= Waits.MAX_EXPIRES_HOURS)) {
      throw WaitException.invalid(
          "expires_in_hours must be 1 to 720 (30 days), not " + Phrases.hours(hours) + ".");
    }
    return hours;
  }

  /** The device the signal will come from, which the registry must name; null when none. */
  private static String device(String device, Set<String> devices) {
    if (device != null && (!Machines.NAME.matcher(device).matches() || !devices.contains(device))) {
      throw WaitException.invalid(
          "No device '"
              + Phrases.clip(device)
              + "' is registered"
              + (devices.isEmpty()
                  ? " (machines.json lists none)"
                  : "; registered: " + String.join(", ", devices.stream().sorted().toList()))
              + ".");
    }
    return device;
  }
}
