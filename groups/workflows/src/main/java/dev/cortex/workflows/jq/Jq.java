package dev.cortex.workflows.jq;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import net.thisptr.jackson.jq.BuiltinFunctionLoader;
import net.thisptr.jackson.jq.JsonQuery;
import net.thisptr.jackson.jq.Scope;
import net.thisptr.jackson.jq.Versions;
import net.thisptr.jackson.jq.exception.JsonQueryException;
import tools.jackson.databind.JsonNode;

/**
 * Evaluates jq expressions (jq 1.6 language, by jackson-jq). jackson-jq works on Jackson 2 trees;
 * values cross between Jackson 3 and 2 as JSON text, once per value: a run's context is kept as a
 * Jackson 2 tree ({@link Context}) and grows by one converted output per step. Compiled expressions
 * are cached.
 */
public final class Jq {
  private static final ObjectMapper JACKSON2 = new ObjectMapper();
  private static final ConcurrentHashMap<String, JsonQuery> COMPILED = new ConcurrentHashMap<>();

  private static final class Root {
    static final Scope SCOPE = root();

    private static Scope root() {
      Scope scope = Scope.newEmptyScope();
      BuiltinFunctionLoader.getInstance().loadFunctions(Versions.JQ_1_6, scope);
      return scope;
    }
  }

  private Jq() {}

  /** Thrown when an expression does not compile, fails, or yields not exactly one value. */
  public static final class JqException extends Exception {
    private static final long serialVersionUID = 1L;

    JqException(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The run's evaluation context {@code {params, steps}} as a Jackson 2 tree. Step outputs are
   * added as steps complete; {@link #with} gives a child context for a {@code for_each} element.
   */
  public static final class Context {
    private final com.fasterxml.jackson.databind.node.ObjectNode root;
    private final com.fasterxml.jackson.databind.node.ObjectNode steps;

    private Context(
        com.fasterxml.jackson.databind.node.ObjectNode root,
        com.fasterxml.jackson.databind.node.ObjectNode steps) {
      this.root = root;
      this.steps = steps;
    }

    /** A context with {@code params} and no step outputs yet. */
    public static Context of(JsonNode params) {
      com.fasterxml.jackson.databind.node.ObjectNode root = JACKSON2.createObjectNode();
      root.set("params", toJackson2(params));
      com.fasterxml.jackson.databind.node.ObjectNode steps = root.putObject("steps");
      return new Context(root, steps);
    }

    /** Records the output of step {@code id}; later expressions see it as {@code .steps.<id>}. */
    public synchronized void put(String id, JsonNode output) {
      steps.set(id, toJackson2(output));
    }

    /** A copy of this context with {@code item} and {@code index} set, for one for_each element. */
    public synchronized Context with(JsonNode item, int index) {
      com.fasterxml.jackson.databind.node.ObjectNode copy = JACKSON2.createObjectNode();
      copy.set("params", root.get("params"));
      copy.set("steps", steps); // shared: no step output is added while a step fans out
      copy.set("item", toJackson2(item));
      copy.put("index", index);
      return new Context(copy, (com.fasterxml.jackson.databind.node.ObjectNode) copy.get("steps"));
    }

    /** The single value {@code expression} yields over this context. */
    public synchronized JsonNode evaluate(String expression) throws JqException {
      return Jq.evaluate2(expression, root);
    }

    /**
     * The context as JSON: {@code params}, {@code steps} and, for a for_each element, {@code item}
     * and {@code index}; for an engine that evaluates expressions in another process.
     */
    public synchronized JsonNode toJson() {
      return fromJackson2(root);
    }

    /** The context that {@link #toJson} gave. */
    public static Context fromJson(JsonNode json) {
      if (!(toJackson2(json) instanceof com.fasterxml.jackson.databind.node.ObjectNode root)) {
        throw new IllegalArgumentException("a run context is a JSON object");
      }
      if (!(root.get("steps") instanceof com.fasterxml.jackson.databind.node.ObjectNode steps)) {
        return new Context(root, root.putObject("steps"));
      }
      return new Context(root, steps);
    }
  }

  /** The single value {@code expression} yields over {@code input}. */
  public static JsonNode evaluate(String expression, JsonNode input) throws JqException {
    return evaluate2(expression, toJackson2(input));
  }

  static JsonNode evaluate2(String expression, com.fasterxml.jackson.databind.JsonNode input)
      throws JqException {
    JsonQuery query = compile(expression);
    List<com.fasterxml.jackson.databind.JsonNode> out = new ArrayList<>(1);
    try {
      query.apply(Root.SCOPE, input, out::add);
    } catch (JsonQueryException | RuntimeException e) {
      throw new JqException(
          "jq expression '" + expression + "' failed: " + firstLine(e.getMessage()));
    }
    if (out.size() != 1) {
      throw new JqException(
          "jq expression '"
              + expression
              + "' yielded "
              + out.size()
              + " values where one was expected; wrap it in [ ... ] to collect them");
    }
    return fromJackson2(out.get(0));
  }

  private static JsonQuery compile(String expression) throws JqException {
    JsonQuery cached = COMPILED.get(expression);
    if (cached != null) {
      return cached;
    }
    try {
      JsonQuery query = JsonQuery.compile(expression, Versions.JQ_1_6);
      if (COMPILED.size() < 10_000) {
        COMPILED.put(expression, query);
      }
      return query;
    } catch (JsonQueryException | RuntimeException e) {
      throw new JqException(JqSyntax.error(expression).orElse("bad jq expression"));
    }
  }

  static com.fasterxml.jackson.databind.JsonNode toJackson2(JsonNode value) {
    if (value == null || value.isMissingNode()) {
      return com.fasterxml.jackson.databind.node.NullNode.getInstance();
    }
    try {
      return JACKSON2.readTree(dev.cortex.base.Json.write(value));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a JSON value could not be carried into jq", e);
    }
  }

  static JsonNode fromJackson2(com.fasterxml.jackson.databind.JsonNode value) {
    try {
      return dev.cortex.base.Json.mapper().readTree(JACKSON2.writeValueAsString(value));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a jq result could not be read back", e);
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "evaluation error";
    }
    return message.lines().findFirst().orElse("evaluation error").strip();
  }
}
