package dev.cortex.testing;

/** The JSON-RPC messages the protocol tests send, one line each. */
public final class JsonRpcLines {
  private JsonRpcLines() {}

  public static final String PROTOCOL_VERSION = "2025-06-18";

  /** {@code initialize} with id 1 from a client that declares no capabilities. */
  public static final String INITIALIZE = initialize("{}");

  public static final String INITIALIZED =
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

  /** {@code initialize} with id 1 from a client declaring {@code capabilities} (JSON). */
  public static String initialize(String capabilities) {
    return "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        + "\""
        + PROTOCOL_VERSION
        + "\",\"capabilities\":"
        + capabilities
        + ",\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
  }

  public static String ping(int id) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}";
  }

  /** {@code tools/call} of {@code tool} with JSON {@code arguments}. */
  public static String toolsCall(int id, String tool, String arguments) {
    return toolsCall(id, tool, arguments, null);
  }

  /** {@code tools/call} of {@code tool} with JSON {@code arguments} and a progress token. */
  public static String toolsCall(int id, String tool, String arguments, String progressToken) {
    String meta =
        progressToken == null ? "" : ",\"_meta\":{\"progressToken\":\"" + progressToken + "\"}";
    return "{\"jsonrpc\":\"2.0\",\"id\":"
        + id
        + ",\"method\":\"tools/call\",\"params\":{\"name\":\""
        + tool
        + "\",\"arguments\":"
        + arguments
        + meta
        + "}}";
  }

  /** {@code notifications/cancelled} of the request whose id is {@code requestId} (JSON). */
  public static String cancel(String requestId) {
    return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":"
        + requestId
        + ",\"reason\":\"no longer needed\"}}";
  }

  /** A result for the server's request {@code id} (JSON). */
  public static String answer(String id, String result) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":" + result + "}";
  }
}
