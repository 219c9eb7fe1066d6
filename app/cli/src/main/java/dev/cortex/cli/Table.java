package dev.cortex.cli;

import java.io.PrintStream;
import java.util.List;

/** A plain-text table for people: columns padded to their widest cell, the first row a header. */
public final class Table {
  private Table() {}

  public static void print(PrintStream out, List<List<String>> rows) {
    out.print(render(rows));
  }

  /** The table as text, a line per row, each ending in a newline. */
  public static String render(List<List<String>> rows) {
    if (rows.isEmpty()) {
      return "";
    }
    int columns = rows.get(0).size();
    int[] widths = new int[columns];
    for (List<String> row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    StringBuilder text = new StringBuilder();
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        String cell = row.get(i);
        line.append(cell);
        if (i < columns - 1) {
          line.append(" ".repeat(widths[i] - cell.length() + 2));
        }
      }
      text.append(line.toString().stripTrailing()).append('\n');
    }
    return text.toString();
  }
}
