package dev.cortex.workflows.consent;

import dev.cortex.mcp.caller.Elicitor;
import java.util.Optional;

/**
 * How the process asks its human: the MCP server through elicitation and native dialogs, the
 * command line on its terminal. Given what one call can use, it gives that call's confirmer.
 */
@FunctionalInterface
public interface ConsentPolicy {
  Confirmer forCall(Optional<Elicitor> elicitor);
}
