package dev.cortex.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns a {@link Composition} into an MCP server on the official SDK, for any transport. Tool calls
 * go through the shared {@link ToolInvoker}, so MCP and the CLI validate, run and fail alike.
 */
public final class McpAssembly {
  private McpAssembly() {}

  /** The identity the server announces at initialize. */
  public record ServerIdentity(String name, String title, String version, String instructions) {
    public ServerIdentity {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(title, "title");
      Objects.requireNonNull(version, "version");
    }
  }

  private static final class Mapper {
    static final McpJsonMapper INSTANCE = new JacksonMcpJsonMapper(JsonMapper.builder().build());
  }

  /** The JSON mapper of the SDK's wire types, shared by every transport of this process. */
  public static McpJsonMapper sdkMapper() {
    return Mapper.INSTANCE;
  }

  /**
   * Completes an SDK server specification (whose transport is already chosen) with this
   * composition's tools, prompts and resources, and builds it.
   */
  public static McpAsyncServer build(
      McpServer.AsyncSpecification<?> spec,
      Composition composition,
      ToolInvoker invoker,
      ServerIdentity identity) {
    return build(spec, composition, invoker, identity, RequestWithdrawal.NONE);
  }

  /**
   * As {@link #build(McpServer.AsyncSpecification, Composition, ToolInvoker, ServerIdentity)}, with
   * the transport's way to withdraw a question a tool asked the client and no longer needs.
   */
  public static McpAsyncServer build(
      McpServer.AsyncSpecification<?> spec,
      Composition composition,
      ToolInvoker invoker,
      ServerIdentity identity,
      RequestWithdrawal withdrawal) {
    return build(spec, composition, invoker, identity, withdrawal, new CancelSignals());
  }

  /**
   * As {@link #build(McpServer.AsyncSpecification, Composition, ToolInvoker, ServerIdentity,
   * RequestWithdrawal)}, with the transport's signals of calls its client cancelled.
   */
  public static McpAsyncServer build(
      McpServer.AsyncSpecification<?> spec,
      Composition composition,
      ToolInvoker invoker,
      ServerIdentity identity,
      RequestWithdrawal withdrawal,
      CancelSignals cancels) {
    Objects.requireNonNull(withdrawal, "withdrawal");
    Objects.requireNonNull(cancels, "cancels");
    List<McpServerFeatures.AsyncPromptSpecification> prompts = new ArrayList<>();
    List<McpServerFeatures.AsyncResourceSpecification> resources = new ArrayList<>();
    for (CapabilityGroup group : composition.groups()) {
      group.prompts().forEach(p -> prompts.add(prompt(p)));
      group.resources().forEach(r -> resources.add(resource(r)));
    }
    McpSchema.ServerCapabilities.Builder capabilities =
        McpSchema.ServerCapabilities.builder().tools(false);
    if (!prompts.isEmpty()) {
      capabilities.prompts(false);
    }
    if (!resources.isEmpty()) {
      capabilities.resources(false, false);
    }
    spec.serverInfo(
            new McpSchema.Implementation(identity.name(), identity.title(), identity.version()))
        .capabilities(capabilities.build())
        .jsonMapper(sdkMapper())
        .jsonSchemaValidator(new InvokerValidates())
        .validateToolInputs(false)
        .tools(invoker.tools().stream().map(t -> tool(t, invoker, withdrawal, cancels)).toList());
    if (identity.instructions() != null) {
      spec.instructions(identity.instructions());
    }
    if (!prompts.isEmpty()) {
      spec.prompts(prompts);
    }
    if (!resources.isEmpty()) {
      spec.resources(resources);
    }
    return spec.build();
  }

  private static McpServerFeatures.AsyncToolSpecification tool(
      ToolSpec spec, ToolInvoker invoker, RequestWithdrawal withdrawal, CancelSignals cancels) {
    ToolHints h = spec.hints();
    McpSchema.Tool tool =
        McpSchema.Tool.builder()
            .name(spec.name())
            .title(spec.title())
            .description(spec.description())
            .inputSchema(spec.inputSchema())
            .outputSchema(spec.outputSchema())
            .annotations(
                new McpSchema.ToolAnnotations(
                    spec.title(),
                    h.readOnly(),
                    h.destructive(),
                    h.idempotent(),
                    h.openWorld(),
                    null))
            .build();
    if (spec.blocking()) {
      return new McpServerFeatures.AsyncToolSpecification(
          tool,
          (exchange, request) ->
              Mono.fromCallable(
                      () -> call(invoker, spec.name(), exchange, request, withdrawal, cancels))
                  .subscribeOn(Schedulers.boundedElastic()));
    }
    // Quick tools answer on the thread that read the request: no hand-off to another thread.
    return new McpServerFeatures.AsyncToolSpecification(
        tool,
        (exchange, request) ->
            Mono.fromCallable(
                () -> call(invoker, spec.name(), exchange, request, withdrawal, cancels)));
  }

  private static McpSchema.CallToolResult call(
      ToolInvoker invoker,
      String name,
      McpAsyncServerExchange exchange,
      McpSchema.CallToolRequest request,
      RequestWithdrawal withdrawal,
      CancelSignals cancels) {
    JsonNode args =
        request.arguments() == null ? null : Json.mapper().valueToTree(request.arguments());
    Object token = request.meta() == null ? null : request.meta().get(CancelSignals.META_KEY);
    ToolOutcome outcome =
        invoker.call(
            name,
            args,
            progressSink(exchange, request),
            ClientElicitor.of(exchange, withdrawal),
            cancels.signal(token));
    McpSchema.CallToolResult.Builder result =
        McpSchema.CallToolResult.builder()
            .addTextContent(outcome.text())
            .isError(outcome.isError());
    if (!outcome.isError()) {
      // Errors travel as text only: clients check structuredContent against the output schema,
      // which describes success, even on results marked isError.
      result.structuredContent(outcome.body());
    }
    return result.build();
  }

  private static ToolContext.ProgressSink progressSink(
      McpAsyncServerExchange exchange, McpSchema.CallToolRequest request) {
    Object token = request.meta() == null ? null : request.meta().get("progressToken");
    if (token == null) {
      return ToolContext.ProgressSink.NONE;
    }
    return (progress, total, message) ->
        exchange
            .progressNotification(
                new McpSchema.ProgressNotification(token, progress, total, message))
            .block();
  }

  private static McpServerFeatures.AsyncPromptSpecification prompt(PromptSpec spec) {
    McpSchema.Prompt prompt = new McpSchema.Prompt(spec.name(), spec.description(), List.of());
    return new McpServerFeatures.AsyncPromptSpecification(
        prompt,
        (exchange, request) ->
            Mono.fromSupplier(
                () ->
                    new McpSchema.GetPromptResult(
                        spec.description(),
                        List.of(
                            new McpSchema.PromptMessage(
                                McpSchema.Role.USER,
                                new McpSchema.TextContent(spec.body().get()))))));
  }

  private static McpServerFeatures.AsyncResourceSpecification resource(ResourceSpec spec) {
    McpSchema.Resource resource =
        McpSchema.Resource.builder()
            .uri(spec.uri())
            .name(spec.name())
            .description(spec.description())
            .mimeType(spec.mimeType())
            .build();
    return new McpServerFeatures.AsyncResourceSpecification(
        resource,
        (exchange, request) ->
            Mono.fromSupplier(
                () ->
                    new McpSchema.ReadResourceResult(
                        List.of(
                            new McpSchema.TextResourceContents(
                                spec.uri(), spec.mimeType(), spec.content().get())))));
  }

  /**
   * The SDK's schema hook. The invoker already checks inputs and outputs for every caller, so the
   * SDK need not check again, nor compile meta-schemas at start-up.
   */
  private static final class InvokerValidates implements JsonSchemaValidator {
    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
      return ValidationResponse.asValid(null);
    }
  }
}
