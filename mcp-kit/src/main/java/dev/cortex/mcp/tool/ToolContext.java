package dev.cortex.mcp.tool;

import dev.cortex.base.Cancellation;
import dev.cortex.base.CortexHome;
import dev.cortex.mcp.caller.Elicitor;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.caller.SessionMemory;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;

/**
 * What a tool call may use from its surroundings: the Cortex home and the clock (injected so that
 * tests control time and location), and what the caller brings (see {@link Caller}).
 */
public record ToolContext(CortexHome home, Clock clock, Caller caller) {
  public ToolContext {
    Objects.requireNonNull(home, "home");
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(caller, "caller");
  }

  /** A context for a caller with no session, no way to ask the human and no cancel. */
  public ToolContext(CortexHome home, Clock clock, ProgressSink progress) {
    this(home, clock, Caller.of(progress));
  }

  public ProgressSink progress() {
    return caller.progress();
  }

  public Optional<Elicitor> elicitor() {
    return caller.elicitor();
  }

  /** The session the call runs for; {@link SessionIdentity#NONE} when started by hand. */
  public SessionIdentity session() {
    return caller.session();
  }

  /** What the server remembers for this call's session. */
  public SessionMemory memory() {
    return caller.memory();
  }

  /** Trips when the caller gives up on the call (MCP {@code notifications/cancelled}). */
  public Cancellation cancellation() {
    return caller.cancellation();
  }

  /**
   * What one caller brings to a call: where progress goes, a way to ask its human (only when the
   * client offers elicitation), the session it acts for and that session's memory, and the signal
   * that it cancelled.
   */
  public record Caller(
      ProgressSink progress,
      Optional<Elicitor> elicitor,
      SessionIdentity session,
      SessionMemory memory,
      Cancellation cancellation) {
    public Caller {
      Objects.requireNonNull(progress, "progress");
      Objects.requireNonNull(elicitor, "elicitor");
      Objects.requireNonNull(session, "session");
      Objects.requireNonNull(memory, "memory");
      Objects.requireNonNull(cancellation, "cancellation");
    }

    /** A caller with no session, no way to ask and no cancel, reporting to {@code progress}. */
    public static Caller of(ProgressSink progress) {
      return new Caller(
          progress, Optional.empty(), SessionIdentity.NONE, new SessionMemory(), Cancellation.NONE);
    }

    /** This caller, able to ask its human through {@code elicitor} when present. */
    public Caller withElicitor(Optional<Elicitor> value) {
      return new Caller(progress, value, session, memory, cancellation);
    }

    /** This caller, acting for {@code identity} with {@code sessionMemory}. */
    public Caller withSession(SessionIdentity identity, SessionMemory sessionMemory) {
      return new Caller(progress, elicitor, identity, sessionMemory, cancellation);
    }

    /** This caller, whose cancel is {@code value}. */
    public Caller withCancellation(Cancellation value) {
      return new Caller(progress, elicitor, session, memory, value);
    }
  }

  /** Receives progress of long work; a no-op when the client sent no progress token. */
  @FunctionalInterface
  public interface ProgressSink {
    void report(double progress, Double total, String message);

    ProgressSink NONE = (progress, total, message) -> {};
  }
}
