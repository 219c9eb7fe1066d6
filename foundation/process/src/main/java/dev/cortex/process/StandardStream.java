package dev.cortex.process;

/** The two output streams of a process. */
public enum StandardStream {
  STDOUT,
  STDERR
}
