package dev.cortex.interaction;

import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.mcp.compose.GroupDescriptor;
import dev.cortex.server.client.AgentServerClient;
import java.time.Clock;
import java.util.List;

/**
 * The {@code interaction} group: a person in the loop. {@code cortex_ask_user} puts questions
 * before a person, {@code cortex_plan_enter} starts the read-only planning protocol and {@code
 * cortex_plan_exit} submits a plan for approval. The agent server keeps each question and plan
 * (reached through its webhook, for the calling session); people answer them with {@code cortex
 * answer} or the session API.
 */
public final class InteractionGroup {
  public static final String NAME = "interaction";
  public static final String SERVER_KEY = "cortex-interaction-bridge";

  public static final GroupDescriptor DESCRIPTOR =
      new GroupDescriptor(
          NAME,
          SERVER_KEY,
          "Questions and plan approvals for a human.",
          "mcp-config-interaction.json");

  private InteractionGroup() {}

  public static CapabilityGroup create(AgentServerClient agentServer, Clock clock) {
    Webhook webhook = new Webhook(agentServer, clock);
    return DESCRIPTOR.group(
        List.of(new AskUser(webhook).spec(), PlanTools.enter(webhook), PlanTools.exit(webhook)));
  }
}
