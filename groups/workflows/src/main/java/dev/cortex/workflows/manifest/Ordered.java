package dev.cortex.workflows.manifest;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Unmodifiable copies of maps that keep the manifest's order. */
final class Ordered {
  private Ordered() {}

  static <K, V> Map<K, V> copy(Map<K, V> map) {
    return Collections.unmodifiableMap(new LinkedHashMap<>(map));
  }
}
