package dev.cortex.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The Cortex version, stamped into the jar by the build. */
public final class Version {
  private Version() {}

  private static final class Holder {
    static final String VALUE = load();
  }

  public static String get() {
    return Holder.VALUE;
  }

  private static String load() {
    try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
