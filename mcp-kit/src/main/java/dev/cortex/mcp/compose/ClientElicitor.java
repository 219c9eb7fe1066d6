package dev.cortex.mcp.compose;

import dev.cortex.mcp.caller.Elicitor;
import dev.cortex.mcp.caller.RequestWithdrawal;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

/** Elicitation through the SDK's exchange, present only when the client declared it. */
final class ClientElicitor implements Elicitor {
  private static final Logger log = LoggerFactory.getLogger(ClientElicitor.class);

  private final McpAsyncServerExchange exchange;
  private final RequestWithdrawal withdrawal;

  private ClientElicitor(McpAsyncServerExchange exchange, RequestWithdrawal withdrawal) {
    this.exchange = exchange;
    this.withdrawal = withdrawal;
  }

  /** An elicitor for this exchange, or empty when the client did not declare elicitation. */
  static Optional<Elicitor> of(McpAsyncServerExchange exchange, RequestWithdrawal withdrawal) {
    McpSchema.ClientCapabilities capabilities = exchange.getClientCapabilities();
    if (capabilities == null || capabilities.elicitation() == null) {
      return Optional.empty();
    }
    return Optional.of(new ClientElicitor(exchange, withdrawal));
  }

  @Override
  public CompletableFuture<Answer> ask(String message, Map<String, Object> requestedSchema) {
    String marker = UUID.randomUUID().toString();
    McpSchema.ElicitRequest request =
        McpSchema.ElicitRequest.builder(message, requestedSchema)
            .meta(Map.of(RequestWithdrawal.META_KEY, marker))
            .build();
    CompletableFuture<Answer> answer = new CompletableFuture<>();
    Disposable pending =
        exchange
            .createElicitation(request)
            .subscribe(
                result -> answer.complete(answer(result)),
                answer::completeExceptionally,
                () -> answer.completeExceptionally(new IllegalStateException("no answer")));
    answer.whenComplete(
        (value, failure) -> {
          if (answer.isCancelled()) {
            pending.dispose();
            log.debug("elicitation {} withdrawn", marker);
            withdrawal.withdraw(marker, "answered through another channel, or no longer needed");
          }
        });
    return answer;
  }

  private static Answer answer(McpSchema.ElicitResult result) {
    Action action =
        switch (result.action()) {
          case ACCEPT -> Action.ACCEPT;
          case DECLINE -> Action.DECLINE;
          default -> Action.CANCEL;
        };
    return new Answer(action, result.content());
  }
}
