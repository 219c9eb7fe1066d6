package dev.cortex.workflows.consent;

import dev.cortex.mcp.caller.Elicitor;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Asks through the MCP client's elicitation form: one required checkbox, {@code approve}. Only an
 * accepted form with {@code approve: true} approves; declining, dismissing or leaving it unticked
 * refuses.
 */
final class ElicitationChannel implements Channel {
  static final String NAME = "elicitation";

  private final Optional<Elicitor> elicitor;

  ElicitationChannel(Optional<Elicitor> elicitor) {
    this.elicitor = elicitor;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Optional<String> unavailable() {
    return elicitor.isPresent()
        ? Optional.empty()
        : Optional.of("the MCP client did not declare elicitation");
  }

  @Override
  public CompletableFuture<Boolean> ask(Confirmation confirmation, Duration within) {
    CompletableFuture<Elicitor.Answer> answer =
        elicitor.orElseThrow().ask(confirmation.message(), form(confirmation));
    CompletableFuture<Boolean> decided =
        answer.thenApply(
            a ->
                a.action() == Elicitor.Action.ACCEPT
                    && Boolean.TRUE.equals(a.content().get("approve")));
    decided.whenComplete(
        (value, failure) -> {
          if (decided.isCancelled()) {
            answer.cancel(true);
          }
        });
    return decided;
  }

  /** The form: a single required boolean, unticked by default. */
  static Map<String, Object> form(Confirmation confirmation) {
    Map<String, Object> approve = new LinkedHashMap<>();
    approve.put("type", "boolean");
    approve.put("title", confirmation.action());
    approve.put(
        "description",
        "Tick and accept to "
            + confirmation.action().toLowerCase(java.util.Locale.ROOT)
            + "; decline to refuse.");
    approve.put("default", false);
    Map<String, Object> schema = new LinkedHashMap<>();
    schema.put("type", "object");
    schema.put("properties", Map.of("approve", approve));
    schema.put("required", List.of("approve"));
    return schema;
  }
}
