package dev.cortex.protocol.hub;

import java.util.Locale;

/** What a device can be asked to do, with its wire name and the record of its parameters. */
public enum Action {
  BASH(Actions.Bash.class),
  READ(Actions.Read.class),
  WRITE(Actions.Write.class),
  EDIT(Actions.Edit.class),
  GLOB(Actions.Glob.class),
  GREP(Actions.Grep.class),
  JOB(Actions.Job.class),
  /** Exact bytes of a file, a chunk at a time; devices that can say {@code read_bytes} in hello. */
  READ_BYTES(Actions.ReadBytes.class);

  private final Class<?> params;

  Action(Class<?> params) {
    this.params = params;
  }

  /** The wire name, e.g. {@code bash}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The record the parameters of this action bind to. */
  public Class<?> params() {
    return params;
  }

  /** The action of a wire name, or null. */
  public static Action of(String wireName) {
    for (Action action : values()) {
      if (action.wireName().equals(wireName)) {
        return action;
      }
    }
    return null;
  }
}
