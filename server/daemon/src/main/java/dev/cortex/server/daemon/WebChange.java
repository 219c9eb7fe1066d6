package dev.cortex.server.daemon;

/**
 * A change the workbench's live events tell pages about: a decision card's action log ({@code kind}
 * {@code decision}, {@code id} the attachment), or a board created or bound ({@code board}, {@code
 * id} the board; {@code session} the session bound, else null).
 */
public record WebChange(String kind, String session, String id) {
  public static final String DECISION = "decision";
  public static final String BOARD = "board";
}
