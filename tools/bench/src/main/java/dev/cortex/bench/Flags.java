package dev.cortex.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The harnesses' flag syntax: {@code --name value} pairs; {@code -h}/{@code --help} asks for usage.
 */
final class Flags {
  private Flags() {}

  /** The value of each flag given (the last one wins); an unknown flag is bad usage. */
  static Map<String, String> parse(String[] args, Set<String> known) {
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      if (flag.equals("-h") || flag.equals("--help")) {
        throw new IllegalArgumentException("");
      }
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException("missing value for " + flag);
      }
      if (!known.contains(flag)) {
        throw new IllegalArgumentException("unknown option " + flag);
      }
      values.put(flag, args[++i]);
    }
    return values;
  }

  /** A whole number of at least {@code min}, or {@code otherwise} when the flag is absent. */
  static int count(Map<String, String> values, String flag, int otherwise, int min) {
    String value = values.get(flag);
    if (value == null) {
      return otherwise;
    }
    try {
      int n = Integer.parseInt(value);
      if (n >= min) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(flag + " needs a whole number >= " + min + ", not " + value);
  }
}
