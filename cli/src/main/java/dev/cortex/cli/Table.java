package dev.cortex.cli;

import java.io.PrintStream;
import java.util.List;

/** A plain-text table for people: columns padded to their widest cell, the first row a header. */
final class Table {
  private Table() {}

  static void print(PrintStream out, List<List<String>> rows) {
    if (rows.isEmpty()) {
      return;
    }
    int columns = rows.get(0).size();
    int[] widths = new int[columns];
    for (List<String> row : rows) {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    for (List<String> row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        String cell = row.get(i);
        line.append(cell);
        if (i < columns - 1) {
          line.append(" ".repeat(widths[i] - cell.length() + 2));
        }
      }
      out.println(line.toString().stripTrailing());
    }
  }
}
