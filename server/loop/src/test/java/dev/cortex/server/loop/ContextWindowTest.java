package dev.cortex.server.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Json;
import dev.cortex.models.ChatMessage;
import dev.cortex.models.ChatPart;
import java.util.List;
import org.junit.jupiter.api.Test;

class ContextWindowTest {
  static ChatMessage call(String id) {
    return ChatMessage.assistant(
        List.of(new ChatPart.ToolCall(id, "remote_bash", Json.mapper().createObjectNode())));
  }

  static ChatMessage output(String id, String content) {
    return ChatMessage.user(List.of(new ChatPart.ToolOutput(id, content, false)));
  }

  static ChatMessage said(String text) {
    return ChatMessage.assistant(List.of(new ChatPart.Text(text)));
  }

  @Test
  void estimate_countsFourCharactersAToken() {
    long tokens =
        ContextWindow.estimate(
            "s".repeat(400), List.of(ChatMessage.user("u".repeat(800))), List.of());

    assertThat(tokens).isEqualTo(100 + 200 + 1);
  }

  @Test
  void limit_isEightyPercentOfTheWindowLessTheAnswer() {
    assertThat(ContextWindow.limit(10_000, 2_000)).isEqualTo(6_400);
  }

  @Test
  void shortenOutputs_cutsOnlyOlderLongOutputs_keepingHeadAndTail() {
    String longOutput = "h".repeat(800) + "m".repeat(5_000) + "t".repeat(300);
    List<ChatMessage> messages =
        List.of(
            ChatMessage.user("go"),
            call("1"),
            output("1", longOutput),
            call("2"),
            output("2", "short"),
            call("3"),
            output("3", longOutput));

    ContextWindow.Shortened shortened = ContextWindow.shortenOutputs(messages);

    assertThat(shortened.cut()).isEqualTo(5_000);
    String first = ((ChatPart.ToolOutput) shortened.messages().get(2).parts().get(0)).content();
    assertThat(first)
        .startsWith("h".repeat(800) + "\n[… 5000 characters cut")
        .endsWith("…]\n" + "t".repeat(300));
    assertThat(shortened.messages().get(6))
        .as("the latest output stays")
        .isEqualTo(messages.get(6));
    assertThat(shortened.messages().get(4)).isEqualTo(messages.get(4));
  }

  @Test
  void summaryCut_isThePersonsLastMessageThatLeavesFourAfterIt() {
    List<ChatMessage> messages =
        List.of(
            ChatMessage.user("first"),
            said("ok"),
            ChatMessage.user("second"),
            call("1"),
            output("1", "x"),
            said("done"),
            ChatMessage.user("third"),
            said("fine"));

    assertThat(ContextWindow.summaryCut(messages)).isEqualTo(2);
  }

  @Test
  void summaryCut_withoutAnOlderPersonsMessage_isZero() {
    List<ChatMessage> messages =
        List.of(ChatMessage.user("only"), call("1"), output("1", "x"), call("2"), output("2", "y"));

    assertThat(ContextWindow.summaryCut(messages)).isZero();
  }

  @Test
  void summarised_putsTheSummaryBeforeTheKeptPersonsMessage() {
    List<ChatMessage> messages =
        List.of(ChatMessage.user("first"), said("ok"), ChatMessage.user("second"), said("done"));

    List<ChatMessage> out = ContextWindow.summarised(messages, 2, "they said first");

    assertThat(out).hasSize(2);
    assertThat(out.get(0).parts())
        .containsExactly(
            new ChatPart.Text("[A summary of the earlier conversation]\nthey said first"),
            new ChatPart.Text("second"));
    assertThat(out.get(1)).isEqualTo(messages.get(3));
  }
}
