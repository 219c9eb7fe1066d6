package dev.cortex.cli.workflows;

import dev.cortex.cli.Io;
import dev.cortex.cli.Terminal;
import dev.cortex.workflows.consent.Confirmation;
import dev.cortex.workflows.consent.Confirmer;
import dev.cortex.workflows.consent.ConsentPolicy;
import dev.cortex.workflows.consent.Decision;
import java.util.List;
import java.util.Locale;

/**
 * How the command line confirms a run: {@code --yes} or {@code CORTEX_ASSUME_YES=1} confirm it (the
 * person typed the command); otherwise a terminal is asked y/N on standard error; without a
 * terminal nothing runs. {@code cortex mcp} never uses this: it removes {@code CORTEX_ASSUME_YES}
 * at start and asks through the MCP client or a dialog.
 */
public final class CliConsent implements Confirmer {
  public static final String ASSUME_YES = "CORTEX_ASSUME_YES";
  static final String CHANNEL = "terminal";

  private final Io io;
  private final boolean yes;
  private final boolean terminal;

  CliConsent(Io io, boolean yes, boolean terminal) {
    this.io = io;
    this.yes = yes || isSet(io.env(ASSUME_YES));
    this.terminal = terminal;
  }

  /** The command line's policy for tools called in-process: the variable or the terminal. */
  public static ConsentPolicy policy(Io io) {
    return elicitor -> new CliConsent(io, false, Terminal.stdinIsTerminal());
  }

  @Override
  public Decision confirm(Confirmation confirmation) {
    if (yes) {
      io.err()
          .println(
              "cortex: "
                  + (confirmation.kind() == Confirmation.Kind.TRUST ? "trusted" : "confirmed")
                  + " by --yes / "
                  + ASSUME_YES
                  + ": "
                  + confirmation.title());
      return Decision.approved("assume-yes");
    }
    if (!terminal) {
      return new Decision(
          Decision.Outcome.NO_CHANNEL,
          CHANNEL,
          "there is no terminal to ask on; pass --yes or set " + ASSUME_YES + "=1 to confirm it");
    }
    boolean approved = Terminal.confirm(io, confirmation.message(), confirmation.action());
    return approved ? Decision.approved(CHANNEL) : Decision.declined(CHANNEL);
  }

  /** Whether a variable such as {@link #ASSUME_YES} is set to 1, true or yes. */
  public static boolean isSet(String value) {
    return value != null
        && List.of("1", "true", "yes").contains(value.strip().toLowerCase(Locale.ROOT));
  }
}
