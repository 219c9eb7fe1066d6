package dev.cortex.workflows.manifest;

import dev.cortex.base.Json;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The type of a workflow parameter. JSON values are checked as they are, never coerced; CLI text is
 * converted strictly by {@link #fromCli}.
 */
public enum ParameterType {
  STRING,
  INTEGER,
  NUMBER,
  BOOLEAN,
  ENUM,
  PATH,
  ARRAY,
  OBJECT;

  private static final Pattern INTEGER_TEXT = Pattern.compile("-?(0|[1-9][0-9]*)");
  private static final Pattern NUMBER_TEXT =
      Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

  /** The name used in manifests. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The type named {@code wireName}, if any. */
  static Optional<ParameterType> fromWireName(String wireName) {
    for (ParameterType type : values()) {
      if (type.wireName().equals(wireName)) {
        return Optional.of(type);
      }
    }
    return Optional.empty();
  }

  /** Whether min and max apply: to numbers by value, to arrays by size. */
  boolean isBounded() {
    return this == INTEGER || this == NUMBER || this == ARRAY;
  }

  /**
   * Why {@code value}, a parsed JSON value, is not of this type; empty when it is. Enum membership
   * and bounds are checked by the caller.
   */
  Optional<String> mismatch(Object value) {
    boolean ok =
        switch (this) {
          case STRING, ENUM, PATH -> value instanceof String;
          case INTEGER -> isIntegral(value);
          case NUMBER -> value instanceof Number;
          case BOOLEAN -> value instanceof Boolean;
          case ARRAY -> value instanceof List<?>;
          case OBJECT -> value instanceof Map<?, ?>;
        };
    if (ok && this == PATH && ((String) value).isEmpty()) {
      return Optional.of("expected a path, got an empty string");
    }
    return ok
        ? Optional.empty()
        : Optional.of("expected " + article() + ", got " + describe(value));
  }

  /**
   * Converts the text of a {@code --param name=text} option. Strings, paths and enums take the text
   * as is; integers and numbers must be written as JSON numbers; booleans as {@code true} or {@code
   * false}; arrays and objects as JSON.
   *
   * @throws IllegalArgumentException naming what was expected
   */
  Object fromCli(String text) {
    return switch (this) {
      case STRING, ENUM, PATH -> text;
      case INTEGER -> parseInteger(text);
      case NUMBER -> parseNumber(text);
      case BOOLEAN -> parseBoolean(text);
      case ARRAY, OBJECT -> parseJson(text);
    };
  }

  private static boolean isIntegral(Object value) {
    return value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte
        || value instanceof BigInteger;
  }

  private Object parseInteger(String text) {
    if (!INTEGER_TEXT.matcher(text).matches()) {
      throw new IllegalArgumentException("expected an integer, got '" + text + "'");
    }
    BigInteger value = new BigInteger(text);
    return value.bitLength() < 64 ? (Object) value.longValue() : value;
  }

  private Object parseNumber(String text) {
    if (!NUMBER_TEXT.matcher(text).matches()) {
      throw new IllegalArgumentException("expected a number, got '" + text + "'");
    }
    if (INTEGER_TEXT.matcher(text).matches()) {
      return parseInteger(text);
    }
    return new BigDecimal(text).doubleValue();
  }

  private static Object parseBoolean(String text) {
    return switch (text) {
      case "true" -> Boolean.TRUE;
      case "false" -> Boolean.FALSE;
      default -> throw new IllegalArgumentException("expected true or false, got '" + text + "'");
    };
  }

  private Object parseJson(String text) {
    Object value;
    try {
      value = Json.mapper().readValue(text, Object.class);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "expected " + article() + " written as JSON, got '" + text + "'");
    }
    mismatch(value)
        .ifPresent(
            problem -> {
              throw new IllegalArgumentException(problem);
            });
    return value;
  }

  private String article() {
    return switch (this) {
      case INTEGER, ARRAY, OBJECT, ENUM -> "an " + wireName();
      default -> "a " + wireName();
    };
  }

  static String describe(Object value) {
    if (value == null) {
      return "null";
    }
    if (value instanceof String s) {
      return "string \"" + s + "\"";
    }
    if (value instanceof Boolean b) {
      return "boolean " + b;
    }
    if (value instanceof Number n) {
      return "number " + n;
    }
    if (value instanceof List<?>) {
      return "an array";
    }
    if (value instanceof Map<?, ?>) {
      return "an object";
    }
    return value.getClass().getSimpleName();
  }
}
