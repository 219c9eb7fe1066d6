package dev.cortex.core;

import dev.cortex.mcp.compose.CapabilityGroup;
import dev.cortex.protocol.hub.Machines;
import java.nio.file.Path;
import java.util.Set;
import org.slf4j.LoggerFactory;

/**
 * The list of registered devices that the first remote tool of a tool list carries in its
 * description, so that an agent knows which {@code device} values exist before its first call. Read
 * from {@code machines.json} when the server composes its tools.
 */
final class DeviceCatalogue {
  static final Set<String> REMOTE_TOOLS =
      Set.of(
          RemoteBash.NAME,
          RemoteRead.NAME,
          RemoteWrite.WRITE,
          RemoteWrite.EDIT,
          RemoteSearch.GLOB,
          RemoteSearch.GREP,
          RemoteJob.NAME);

  private DeviceCatalogue() {}

  static CapabilityGroup.LeadNote note(Path file) {
    Machines machines;
    try {
      machines = Machines.read(file);
    } catch (IllegalArgumentException e) {
      LoggerFactory.getLogger(DeviceCatalogue.class).warn("{}", e.getMessage());
      return new CapabilityGroup.LeadNote(
          REMOTE_TOOLS,
          "Devices: machines.json cannot be read right now (" + e.getMessage() + ").");
    }
    return new CapabilityGroup.LeadNote(REMOTE_TOOLS, text(machines));
  }

  static String text(Machines machines) {
    if (machines.enabled().isEmpty()) {
      return "Devices: none is registered yet. A person adds them to machines.json in the Cortex"
          + " home and runs 'cortex client' on each.";
    }
    StringBuilder text =
        new StringBuilder("Devices registered in machines.json (use the name as device):");
    for (Machines.Machine machine : machines.enabled()) {
      text.append("\n- ").append(machine.name());
      if (machine.windows()) {
        text.append(" [Windows: commands run in cmd.exe; background jobs unavailable]");
      } else if (machine.platform() != null) {
        text.append(" (").append(machine.platform()).append(')');
      }
      if (machine.description() != null && !machine.description().isEmpty()) {
        text.append(": ").append(machine.description());
      }
    }
    text.append(
        "\nA device that is not connected right now fails the call with the list of those online.");
    return text.toString();
  }
}
