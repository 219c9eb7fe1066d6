package dev.cortex.workflows.manifest;

/** Field paths such as {@code steps[2].with.url}; the root is the empty path. */
final class FieldPath {
  private FieldPath() {}

  static String member(String parent, String name) {
    return parent.isEmpty() ? name : parent + "." + name;
  }

  static String element(String parent, int index) {
    return parent + "[" + index + "]";
  }

  static String parent(String path) {
    int cut = Math.max(path.lastIndexOf('.'), path.lastIndexOf('['));
    return cut < 0 ? "" : path.substring(0, cut);
  }
}
