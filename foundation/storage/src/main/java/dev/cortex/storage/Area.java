package dev.cortex.storage;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A capability area's share of the database (for example {@code evidence} or {@code workflows}):
 * its name and the ordered migrations that build its tables.
 *
 * @param name lower-case letters, digits and underscores, starting with a letter
 * @param migrations in strictly ascending version order (gaps are allowed)
 */
public record Area(String name, List<Migration> migrations) {
  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");

  public Area {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "area name must match [a-z][a-z0-9_]*, got '" + name + "'");
    }
    migrations = List.copyOf(migrations);
    if (migrations.isEmpty()) {
      throw new IllegalArgumentException("area '" + name + "' has no migrations");
    }
    for (int i = 1; i < migrations.size(); i++) {
      int previous = migrations.get(i - 1).version();
      int current = migrations.get(i).version();
      if (current <= previous) {
        throw new IllegalArgumentException(
            "area '"
                + name
                + "' lists migration version "
                + current
                + " after version "
                + previous
                + "; versions must ascend");
      }
    }
  }

  public static Area of(String name, Migration... migrations) {
    return new Area(name, List.of(migrations));
  }

  /** The version this area is at once every migration has run. */
  public int latestVersion() {
    return migrations.get(migrations.size() - 1).version();
  }
}
