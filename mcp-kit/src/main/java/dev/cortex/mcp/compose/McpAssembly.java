package dev.cortex.mcp.compose;

import dev.cortex.base.Cancellation;
import dev.cortex.base.Json;
import dev.cortex.mcp.caller.CancelSignals;
import dev.cortex.mcp.caller.RequestWithdrawal;
import dev.cortex.mcp.caller.SessionIdentity;
import dev.cortex.mcp.caller.Sessions;
import dev.cortex.mcp.tool.Content;
import dev.cortex.mcp.tool.PromptSpec;
import dev.cortex.mcp.tool.ResourceSpec;
import dev.cortex.mcp.tool.ToolContext;
import dev.cortex.mcp.tool.ToolHints;
import dev.cortex.mcp.tool.ToolInvoker;
import dev.cortex.mcp.tool.ToolOutcome;
import dev.cortex.mcp.tool.ToolSpec;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.jackson3.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.server.McpAsyncServer;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.ArrayList;
import java.util.Base64;
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
   * What a transport offers the tools beyond moving messages: withdrawing a question the server
   * asked the client, and telling a call that the client cancelled it.
   */
  public record TransportHooks(RequestWithdrawal withdrawal, CancelSignals cancellations) {
    /** For a transport that can neither withdraw a question nor see a cancel. */
    public static TransportHooks none() {
      return new TransportHooks(RequestWithdrawal.NONE, CancelSignals.NONE);
    }

    public TransportHooks {
      Objects.requireNonNull(withdrawal, "withdrawal");
      Objects.requireNonNull(cancellations, "cancellations");
    }
  }

  /**
   * Completes an SDK server specification (whose transport is already chosen) with this
   * composition's tools, prompts and resources, and builds it. Calls run for no session.
   */
  public static McpAsyncServer build(
      McpServer.AsyncSpecification<?> spec,
      Composition composition,
      ToolInvoker invoker,
      ServerIdentity identity) {
    return build(
        spec,
        composition,
        invoker,
        identity,
        TransportHooks.none(),
        new Sessions(SessionIdentity.NONE));
  }

  /**
   * As {@link #build(McpServer.AsyncSpecification, Composition, ToolInvoker, ServerIdentity)}, with
   * the transport's hooks and the sessions calls run for.
   */
  public static McpAsyncServer build(
      McpServer.AsyncSpecification<?> spec,
      Composition composition,
      ToolInvoker invoker,
      ServerIdentity identity,
      TransportHooks hooks,
      Sessions sessions) {
    Objects.requireNonNull(hooks, "hooks");
    Objects.requireNonNull(sessions, "sessions");
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
        .tools(invoker.tools().stream().map(t -> tool(t, invoker, hooks, sessions)).toList());
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
      ToolSpec spec, ToolInvoker invoker, TransportHooks hooks, Sessions sessions) {
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
                      () -> call(invoker, spec.name(), exchange, request, hooks, sessions))
                  .subscribeOn(Schedulers.boundedElastic()));
    }
    // Quick tools answer on the thread that read the request: no hand-off to another thread.
    return new McpServerFeatures.AsyncToolSpecification(
        tool,
        (exchange, request) ->
            Mono.fromCallable(
                () -> call(invoker, spec.name(), exchange, request, hooks, sessions)));
  }

  private static McpSchema.CallToolResult call(
      ToolInvoker invoker,
      String name,
      McpAsyncServerExchange exchange,
      McpSchema.CallToolRequest request,
      TransportHooks hooks,
      Sessions sessions) {
    JsonNode args =
        request.arguments() == null ? null : Json.mapper().valueToTree(request.arguments());
    Object requestId = request.meta() == null ? null : request.meta().get(CancelSignals.META_KEY);
    ToolContext.Caller caller =
        ToolContext.Caller.of(progressSink(exchange, request))
            .withElicitor(ClientElicitor.of(exchange, hooks.withdrawal()))
            .withSession(sessions.identity(), sessions.memory(exchange.sessionId()))
            .withCancellation(
                requestId == null
                    ? Cancellation.NONE
                    : hooks.cancellations().of(exchange.sessionId(), requestId));
    ToolOutcome outcome = invoker.call(name, args, caller);
    McpSchema.CallToolResult.Builder result =
        McpSchema.CallToolResult.builder()
            .addTextContent(outcome.text())
            .isError(outcome.isError());
    if (outcome instanceof ToolOutcome.Success success) {
      // Errors travel as text only: clients check structuredContent against the output schema,
      // which describes success, even on results marked isError.
      result.structuredContent(success.body());
      success.content().forEach(item -> result.addContent(content(item)));
    }
    return result.build();
  }

  private static McpSchema.Content content(Content item) {
    Base64.Encoder base64 = Base64.getEncoder();
    if (item instanceof Content.Image image) {
      return new McpSchema.ImageContent(
          null, base64.encodeToString(image.data()), image.mimeType());
    }
    if (item instanceof Content.Resource resource) {
      return new McpSchema.EmbeddedResource(
          null,
          new McpSchema.BlobResourceContents(
              resource.uri(), resource.mimeType(), base64.encodeToString(resource.data())));
    }
    return new McpSchema.TextContent(((Content.Text) item).text());
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
