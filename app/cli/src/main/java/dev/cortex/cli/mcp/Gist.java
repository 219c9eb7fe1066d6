package dev.cortex.cli.mcp;

/** The gist of a description for one line of a table: its first sentence, cut at a word. */
final class Gist {
  private Gist() {}

  /**
   * The first sentence of {@code text}, whole when it fits in {@code width} characters, else cut at
   * the last word boundary that fits and ended with an ellipsis; never cut inside a word.
   */
  static String of(String text, int width) {
    String flat = text.strip().replaceAll("\\s+", " ");
    int end = flat.indexOf(". ");
    String sentence = end < 0 ? flat : flat.substring(0, end + 1);
    if (sentence.length() <= width) {
      return sentence;
    }
    int cut = sentence.lastIndexOf(' ', width - 1);
    if (cut <= 0) {
      cut = width - 1;
    }
    String kept = sentence.substring(0, cut).replaceAll("[\\s,;:(\\-–—]+$", "");
    return kept + "…";
  }
}
