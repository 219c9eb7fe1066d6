package dev.cortex.models;

import tools.jackson.databind.JsonNode;

/** Reading the fields of an API's JSON leniently: a field of the wrong type counts as absent. */
final class Nodes {
  private Nodes() {}

  /** The string {@code field} of {@code node}, or {@code fallback}. */
  static String text(JsonNode node, String field, String fallback) {
    JsonNode value = node.path(field);
    return value.isString() ? value.asString() : fallback;
  }

  /** The whole number {@code field} of {@code node}, at least 0, or {@code fallback}. */
  static long count(JsonNode node, String field, long fallback) {
    JsonNode value = node.path(field);
    return value.isIntegralNumber() && value.canConvertToLong()
        ? Math.max(0, value.asLong())
        : fallback;
  }
}
