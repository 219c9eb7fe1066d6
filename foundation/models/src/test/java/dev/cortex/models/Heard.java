package dev.cortex.models;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A listener that keeps what it heard, in order: text pieces, thinking pieces and restarts. */
final class Heard implements StreamListener {
  final List<String> text = new CopyOnWriteArrayList<>();
  final List<String> thinking = new CopyOnWriteArrayList<>();
  final List<String> all = new CopyOnWriteArrayList<>();
  volatile int restarts;

  @Override
  public void text(String delta) {
    text.add(delta);
    all.add("text:" + delta);
  }

  @Override
  public void thinking(String delta) {
    thinking.add(delta);
    all.add("thinking:" + delta);
  }

  @Override
  public void restarted() {
    restarts++;
    all.add("restarted");
  }
}
