package dev.cortex.base;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * A set of literal strings found in a text in one pass, however many there are (an Aho–Corasick
 * automaton): {@link #replace} puts one replacement in place of each stretch of the text that one
 * or more of them cover, overlapping or adjoining ones merged.
 */
final class Literals {
  private static final int ROOT = 0;

  /** Child of a node by a char: the key is the node's number and the char. */
  private final Map<Long, Integer> children = new HashMap<>();

  /**
   * Per node: where to go on a mismatch, the longest literal that ends here (0: none), the char of
   * the edge that leads to it, its first child and its next sibling.
   */
  private int[] failure = new int[16];

  private int[] longest = new int[16];
  private char[] edge = new char[16];
  private int[] firstChild = new int[16];
  private int[] nextSibling = new int[16];
  private int nodes = 1;

  private Literals() {
    firstChild[ROOT] = -1;
  }

  /** The automaton of {@code literals}; empty ones are left out. */
  static Literals of(Collection<String> literals) {
    Literals automaton = new Literals();
    for (String literal : literals) {
      automaton.add(literal);
    }
    automaton.link();
    return automaton;
  }

  boolean isEmpty() {
    return nodes == 1;
  }

  /** {@code text} with each stretch the literals cover replaced by {@code replacement}. */
  String replace(String text, String replacement) {
    if (isEmpty()) {
      return text;
    }
    // The stretches found so far, merged, in order; a literal that ends later may start earlier.
    int[] starts = new int[8];
    int[] ends = new int[8];
    int count = 0;
    int node = ROOT;
    for (int i = 0; i < text.length(); i++) {
      node = step(node, text.charAt(i));
      if (longest[node] == 0) {
        continue;
      }
      int from = i + 1 - longest[node];
      while (count > 0 && from <= ends[count - 1]) {
        from = Math.min(from, starts[--count]);
      }
      if (count == starts.length) {
        starts = Arrays.copyOf(starts, count * 2);
        ends = Arrays.copyOf(ends, count * 2);
      }
      starts[count] = from;
      ends[count++] = i + 1;
    }
    if (count == 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int copied = 0;
    for (int k = 0; k < count; k++) {
      out.append(text, copied, starts[k]).append(replacement);
      copied = ends[k];
    }
    return out.append(text, copied, text.length()).toString();
  }

  private int step(int node, char c) {
    int at = node;
    while (true) {
      Integer child = children.get(key(at, c));
      if (child != null) {
        return child;
      }
      if (at == ROOT) {
        return ROOT;
      }
      at = failure[at];
    }
  }

  private void add(String literal) {
    if (literal.isEmpty()) {
      return;
    }
    int node = ROOT;
    for (int i = 0; i < literal.length(); i++) {
      long key = key(node, literal.charAt(i));
      Integer child = children.get(key);
      if (child == null) {
        child = newNode(literal.charAt(i));
        children.put(key, child);
        nextSibling[child] = firstChild[node];
        firstChild[node] = child;
      }
      node = child;
    }
    longest[node] = literal.length();
  }

  private int newNode(char via) {
    if (nodes == failure.length) {
      int size = nodes * 2;
      failure = Arrays.copyOf(failure, size);
      longest = Arrays.copyOf(longest, size);
      edge = Arrays.copyOf(edge, size);
      firstChild = Arrays.copyOf(firstChild, size);
      nextSibling = Arrays.copyOf(nextSibling, size);
    }
    int node = nodes++;
    edge[node] = via;
    firstChild[node] = -1;
    return node;
  }

  /**
   * Links each node to the longest proper suffix of its path that is also a path, breadth first; a
   * node's longest literal is its own or its suffix's (the longest literal that ends there).
   */
  private void link() {
    ArrayDeque<Integer> queue = new ArrayDeque<>();
    for (int child = firstChild[ROOT]; child != -1; child = nextSibling[child]) {
      failure[child] = ROOT;
      queue.add(child);
    }
    while (!queue.isEmpty()) {
      int node = queue.poll();
      for (int child = firstChild[node]; child != -1; child = nextSibling[child]) {
        failure[child] = step(failure[node], edge[child]);
        if (longest[child] == 0) {
          longest[child] = longest[failure[child]];
        }
        queue.add(child);
      }
    }
  }

  private static long key(int node, char c) {
    return ((long) node << 16) | c;
  }
}
