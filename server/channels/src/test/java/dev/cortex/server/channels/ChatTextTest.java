package dev.cortex.server.channels;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChatTextTest {
  @Test
  void aShortReplyIsOneMessage_andBlankIsNone() {
    assertThat(ChatText.split("  It is 9 pm.  ", 100)).containsExactly("It is 9 pm.");
    assertThat(ChatText.split("  \n ", 100)).isEmpty();
  }

  @Test
  void aLongReply_isCutAtBlankLines_thenLines_thenSpaces_neverOverTheLimit() {
    String para = "word ".repeat(30).strip();
    String text = para + "\n\n" + para + "\n\n" + para;
    List<String> parts = ChatText.split(text, 200);
    assertThat(parts).hasSize(3).allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(200));
    assertThat(String.join("\n\n", parts)).isEqualTo(text);

    List<String> words = ChatText.split("abc ".repeat(100), 50);
    assertThat(words).allSatisfy(p -> assertThat(p.length()).isLessThanOrEqualTo(50));
    assertThat(String.join(" ", words)).isEqualTo("abc ".repeat(100).strip());
  }

  @Test
  void aCodeBlockCutInTwo_isClosedAndOpenedAgain() {
    StringBuilder code = new StringBuilder("Here:\n```\n");
    for (int i = 0; i < 40; i++) {
      code.append("line ").append(i).append('\n');
    }
    code.append("```\nDone.");
    List<String> parts = ChatText.split(code.toString(), 120);
    assertThat(parts.size()).isGreaterThan(2);
    for (String part : parts) {
      assertThat(part.length()).isLessThanOrEqualTo(120);
      int fences = part.split("```", -1).length - 1;
      assertThat(fences % 2).as("balanced fences in %s", part).isZero();
    }
    assertThat(parts.get(parts.size() - 1)).endsWith("Done.");
    assertThat(String.join("\n", parts)).contains("line 0", "line 39");
  }

  @Test
  void aCutBeforeAnIndentedLine_keepsItsIndentation() {
    String text = "def f():\n" + "    return 1\n".repeat(20);
    List<String> parts = ChatText.split(text, 60);
    assertThat(parts.size()).isGreaterThan(1);
    assertThat(parts.subList(1, parts.size()))
        .allSatisfy(p -> assertThat(p).startsWith("    return"));
  }
}
