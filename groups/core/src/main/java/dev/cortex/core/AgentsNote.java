package dev.cortex.core;

import dev.cortex.mcp.tool.Schema;
import dev.cortex.mcp.tool.ToolCall;
import dev.cortex.protocol.hub.Actions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * An AGENTS.md file as the file tools return it. A session gets each file once (by device, path and
 * content): a changed file comes again.
 */
record AgentsNote(String path, String content, boolean cut) {

  /**
   * The files of {@code chain} this session has not been sent yet, marked as sent now.
   *
   * @param chain the device's chain for a file, or null
   */
  static List<AgentsNote> unseen(ToolCall call, String device, List<Actions.AgentsFile> chain) {
    List<AgentsNote> unseen = new ArrayList<>();
    if (chain == null) {
      return unseen;
    }
    for (Actions.AgentsFile file : chain) {
      if (call.context()
          .memory()
          .firstTime("agents-md|" + device + "|" + file.path() + "|" + file.sha256())) {
        unseen.add(new AgentsNote(file.path(), file.content(), file.cut()));
      }
    }
    return unseen;
  }

  /** The output schema of the AGENTS.md files a result carries. */
  static Map<String, Object> schema() {
    return Schema.array(
        "AGENTS.md and AGENTS.local.md files that apply to this file, from the device's Cortex home"
            + " and the file's folders (outermost first), sent once per session: follow them.",
        Schema.object()
            .required("path", Schema.string("Where the file is on the device."))
            .required("content", Schema.string("Its text (cut at 64 KB)."))
            .required("cut", Schema.bool("True when the text was cut."))
            .build(),
        0,
        0,
        false);
  }
}
