package dev.cortex.cli.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The edit of one entry in a client's file, every other character kept. */
class McpClientFileTest {
  private static final ObjectNode ENTRY =
      McpClientFile.entry(McpClient.CURSOR, List.of("/c/cortex", "mcp"), Map.of());

  private static String add(McpClient client, String text) throws Exception {
    return McpClientFile.add(client, text, ENTRY).text();
  }

  private static String remove(McpClient client, String text) throws Exception {
    return McpClientFile.remove(client, text).text();
  }

  @Test
  void add_emptyObjectOnOneLine_getsTheServersIndented() throws Exception {
    assertThat(add(McpClient.CURSOR, "{}\n"))
        .isEqualTo(
            "{\n  \"mcpServers\": {\n    \"cortex\": {\n      \"command\": \"/c/cortex\",\n"
                + "      \"args\": [\n        \"mcp\"\n      ]\n    }\n  }\n}\n");
  }

  @Test
  void add_thenRemove_givesBackTheTextAsItWas() throws Exception {
    for (String text :
        List.of(
            "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}",
            "{\"mcpServers\": {}}",
            "{\n\t\"mcpServers\": {\n\t\t\"a\": {\"command\": \"a\"}\n\t},\n\t\"x\": 1\n}\n")) {
      assertThat(remove(McpClient.CURSOR, add(McpClient.CURSOR, text))).as(text).isEqualTo(text);
    }
  }

  @Test
  void add_afterAMemberWithAComment_putsTheCommaBeforeTheComment() throws Exception {
    String text = "{\n  \"servers\": {\n    \"a\": {} // mine\n  }\n}\n";

    String added = add(McpClient.VSCODE, text);

    assertThat(added).startsWith("{\n  \"servers\": {\n    \"a\": {}, // mine\n    \"cortex\": {");
    assertThat(remove(McpClient.VSCODE, added)).isEqualTo(text);
  }

  @Test
  void remove_theFirstOfSeveral_leavesTheOthersAsWritten() throws Exception {
    String text =
        "{\"mcpServers\": {\"cortex\": {\"command\": \"x\"}, \"a\": {\"command\": \"a\"}}}";

    assertThat(remove(McpClient.CURSOR, text))
        .isEqualTo("{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}");
  }

  @Test
  void add_existingEntry_replacesOnlyItsValue() throws Exception {
    String text = "{\"mcpServers\": {\"cortex\": {\"command\": \"old\", \"disabled\": true}}}";

    assertThat(add(McpClient.CURSOR, text))
        .isEqualTo(
            "{\"mcpServers\": {\"cortex\": {\n  \"command\": \"/c/cortex\",\n  \"args\": [\n"
                + "    \"mcp\"\n  ],\n  \"disabled\": true\n}}}");
  }

  @Test
  void add_keysWithEscapesAndStringsWithBraces_areReadAsJson() throws Exception {
    String text = "{\"mcpServers\": {\"a\\\"}\": {\"command\": \"{[//\"}}}";

    assertThat(remove(McpClient.CURSOR, add(McpClient.CURSOR, text))).isEqualTo(text);
  }

  @Test
  void add_trailingCommaInAPlainJsonFile_isRefused() {
    assertThatThrownBy(() -> add(McpClient.CLAUDE_CODE, "{\"mcpServers\": {},}"))
        .isInstanceOf(McpClientFile.Unmergeable.class)
        .hasMessageContaining("is not valid JSON (line 1");
  }

  @Test
  void add_jsoncWithABlockCommentInTheServers_keepsIt() throws Exception {
    String text = "{\"servers\": { /* none yet */ }}";

    assertThat(add(McpClient.VSCODE, text))
        .startsWith("{\"servers\": { /* none yet */\n  \"cortex\"");
  }
}
