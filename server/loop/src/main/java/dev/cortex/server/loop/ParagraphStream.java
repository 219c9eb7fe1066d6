package dev.cortex.server.loop;

import dev.cortex.models.StreamListener;
import dev.cortex.server.sessions.backend.Backend;
import dev.cortex.server.sessions.backend.BackendEvent;

/**
 * Streams a model's text into the transcript paragraph by paragraph: each finished paragraph (text
 * up to a blank line) becomes a text event as soon as the model has written it, and the rest when
 * the answer ends. An attempt that breaks off and is asked again starts its text afresh; the
 * paragraphs it already gave stay, with a note.
 */
final class ParagraphStream implements StreamListener {
  private final Backend.TurnEvents events;
  private final StringBuilder pending = new StringBuilder();
  private boolean gave;

  ParagraphStream(Backend.TurnEvents events) {
    this.events = events;
  }

  @Override
  public void text(String delta) {
    pending.append(delta);
    int end = pending.lastIndexOf("\n\n");
    if (end > 0) {
      give(pending.substring(0, end));
      pending.delete(0, end + 2);
    }
  }

  @Override
  public void restarted() {
    pending.setLength(0);
    if (gave) {
      events.event(
          new BackendEvent.Note("The model's answer broke off; it is asked again from the start."));
      gave = false;
    }
  }

  /** Gives what is left: the answer ended. */
  void finish() {
    give(pending.toString());
    pending.setLength(0);
    gave = false;
  }

  private void give(String text) {
    String paragraph = text.strip();
    if (!paragraph.isEmpty()) {
      events.event(new BackendEvent.Text(paragraph));
      gave = true;
    }
  }
}
