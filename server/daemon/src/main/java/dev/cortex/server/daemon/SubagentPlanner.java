package dev.cortex.server.daemon;

import dev.cortex.base.CodedException;
import dev.cortex.base.ErrorCodes;
import dev.cortex.protocol.webhook.SubagentRoles;
import dev.cortex.protocol.webhook.Subagents;
import dev.cortex.server.sessions.AllowlistCheck;
import dev.cortex.server.sessions.store.Session;
import java.util.List;
import java.util.function.Supplier;

/**
 * How an item of an {@code agent} call will run, decided before anything is written: its role,
 * backend and model (the item's, else the call's, else the role's, else the parent's), and the
 * allowlist of its child session's MCP server, which leaves the delegation tools out ({@code core}
 * alone off the {@code claude} backend, {@code core} and {@code ext} on it) and is the role's own
 * when it has one.
 */
final class SubagentPlanner {
  private final Supplier<SubagentRoles> roles;
  private final AllowlistCheck allowlists;
  private final java.util.function.BinaryOperator<String> unfitness;

  /**
   * @param unfitness why a session on a backend (first) with a model (second, null: the default)
   *     could not be created, or null
   */
  SubagentPlanner(
      Supplier<SubagentRoles> roles,
      AllowlistCheck allowlists,
      java.util.function.BinaryOperator<String> unfitness) {
    this.roles = roles;
    this.allowlists = allowlists;
    this.unfitness = unfitness;
  }

  /** One item as it will run. */
  record Planned(
      Subagents.Item item,
      SubagentRoles.Role role,
      String backend,
      String model,
      List<String> allowlist) {
    /** What the child's turn is sent: the role's system prompt, if any, then the item's. */
    String prompt() {
      return role.systemPrompt().isEmpty()
          ? item.prompt()
          : role.systemPrompt() + "\n\n" + item.prompt();
    }
  }

  /** The groups of a subagent's MCP server on {@code backend}. */
  static List<String> groups(String backend) {
    return backend.equals("claude") ? List.of("core", "ext") : List.of("core");
  }

  Planned plan(Session parent, Subagents.Run run, Subagents.Item item) {
    SubagentRoles known = roles.get();
    SubagentRoles.Role role = known.get(item.subagentType());
    if (role == null) {
      throw invalid(
          "Unknown subagent_type '"
              + item.subagentType()
              + "'. Known: "
              + String.join(", ", known.names())
              + ".");
    }
    String backend = first(item.backend(), run.backend(), role.backend(), parent.backend());
    String model = first(item.model(), run.model(), role.model());
    if (model == null && backend.equals(parent.backend())) {
      model = parent.model();
    }
    String unfit = unfitness.apply(backend, model);
    if (unfit != null) {
      throw invalid(unfit);
    }
    if (backend.equals("command") && parent.program() == null) {
      throw invalid(
          "A subagent on the command backend runs its parent's program, and this session has"
              + " none: choose another backend.");
    }
    List<String> served = allowlists.tools(groups(backend));
    if (served == null) {
      throw new CodedException(
          ErrorCodes.UNAVAILABLE,
          "This agent server cannot tell which tools a subagent may have; no subagent was"
              + " started.");
    }
    List<String> allowed =
        served.stream().filter(t -> !Subagents.DELEGATION_TOOLS.contains(t)).toList();
    List<String> allowlist = allowed;
    if (role.tools() != null) {
      for (String tool : role.tools()) {
        if (!allowed.contains(tool)) {
          throw invalid(
              "The role '"
                  + role.name()
                  + "' names the tool '"
                  + tool
                  + "', which a subagent on "
                  + backend
                  + " does not have.");
        }
      }
      allowlist = role.tools();
    }
    if (allowlist.isEmpty()) {
      throw invalid("A subagent on " + backend + " would have no tools.");
    }
    return new Planned(item, role, backend, model, allowlist);
  }

  private static String first(String... values) {
    for (String value : values) {
      if (value != null) {
        return value;
      }
    }
    return null;
  }

  private static CodedException invalid(String message) {
    return new CodedException(ErrorCodes.INVALID_ARGUMENT, message);
  }
}
