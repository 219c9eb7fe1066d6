package dev.cortex.evidence;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Enums whose JSON and SQL spelling is their lower-case name, e.g. {@code agent_reported}. */
interface WireName {
  String name();

  /** The spelling used on the wire (JSON) and in the database. */
  @JsonValue
  default String wire() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The constant spelled {@code text}, or an exception naming the accepted spellings. */
  static <E extends Enum<E> & WireName> E parse(Class<E> type, String text) {
    Object constant = Spellings.OF.get(type).get(text);
    if (constant == null) {
      throw new IllegalArgumentException("'" + text + "' is not one of " + spellings(type));
    }
    return type.cast(constant);
  }

  /** The accepted spellings, in declaration order, for schemas and messages. */
  static <E extends Enum<E> & WireName> String[] values(Class<E> type) {
    return Arrays.stream(type.getEnumConstants()).map(WireName::wire).toArray(String[]::new);
  }

  /** Each wire enum's constants by spelling, built once per type. */
  final class Spellings {
    static final ClassValue<Map<String, Object>> OF =
        new ClassValue<>() {
          @Override
          protected Map<String, Object> computeValue(Class<?> type) {
            Map<String, Object> bySpelling = new HashMap<>();
            for (Object constant : type.getEnumConstants()) {
              bySpelling.put(((WireName) constant).wire(), constant);
            }
            return Map.copyOf(bySpelling);
          }
        };

    private Spellings() {}
  }

  private static <E extends Enum<E> & WireName> String spellings(Class<E> type) {
    return Arrays.stream(type.getEnumConstants())
        .map(WireName::wire)
        .collect(Collectors.joining(", "));
  }
}
