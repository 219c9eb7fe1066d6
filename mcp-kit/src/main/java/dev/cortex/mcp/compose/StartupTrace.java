package dev.cortex.mcp.compose;

/**
 * Prints start-up milestones to stderr, in milliseconds since the JVM started, when {@code
 * CORTEX_TRACE_STARTUP=1}. Costs nothing otherwise.
 */
public final class StartupTrace {
  private static final boolean ON = "1".equals(System.getenv("CORTEX_TRACE_STARTUP"));

  private StartupTrace() {}

  public static void mark(String milestone) {
    if (ON) {
      long start =
          ProcessHandle.current().info().startInstant().map(i -> i.toEpochMilli()).orElse(0L);
      System.err.println("startup " + (System.currentTimeMillis() - start) + " ms: " + milestone);
    }
  }
}
