package dev.cortex.workflows.manifest;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A declared parameter. {@code defaultValue} is a parsed JSON value or null for none; {@code min}
 * and {@code max} bound numbers by value and arrays by size; {@code values} lists an enum's
 * choices.
 */
public record ParameterSpec(
    ParameterType type,
    boolean required,
    Object defaultValue,
    Double min,
    Double max,
    List<String> values,
    String description) {

  public ParameterSpec {
    Objects.requireNonNull(type, "type");
    values = values == null ? List.of() : List.copyOf(values);
    description = description == null ? "" : description;
    if (type == ParameterType.ENUM && values.isEmpty()) {
      throw new IllegalArgumentException("an enum parameter needs values");
    }
    if (type != ParameterType.ENUM && !values.isEmpty()) {
      throw new IllegalArgumentException("values apply to enum parameters only");
    }
    if ((min != null || max != null) && !type.isBounded()) {
      throw new IllegalArgumentException("min and max apply to integer, number and array only");
    }
    if (min != null && max != null && min > max) {
      throw new IllegalArgumentException("min " + min + " is greater than max " + max);
    }
  }

  /** The default, when one is declared. */
  Optional<Object> defaultOptional() {
    return Optional.ofNullable(defaultValue);
  }

  /**
   * Every reason {@code value} (a parsed JSON value) is not acceptable for this parameter: type,
   * enum membership and bounds.
   */
  Optional<String> problem(Object value) {
    Optional<String> mismatch = type.mismatch(value);
    if (mismatch.isPresent()) {
      return mismatch;
    }
    if (type == ParameterType.ENUM && !values.contains(value)) {
      return Optional.of("must be one of " + String.join(", ", values) + ", got \"" + value + "\"");
    }
    if (!type.isBounded()) {
      return Optional.empty();
    }
    boolean array = type == ParameterType.ARRAY;
    double measure = array ? ((List<?>) value).size() : ((Number) value).doubleValue();
    String prefix = array ? "must have " : "must be ";
    String suffix = array ? " elements, got " : ", got ";
    if (min != null && measure < min) {
      return Optional.of(
          prefix + "at least " + Bounds.format(min) + suffix + Bounds.format(measure));
    }
    if (max != null && measure > max) {
      return Optional.of(
          prefix + "at most " + Bounds.format(max) + suffix + Bounds.format(measure));
    }
    return Optional.empty();
  }
}
