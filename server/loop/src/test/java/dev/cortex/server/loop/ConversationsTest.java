package dev.cortex.server.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.base.Json;
import dev.cortex.models.ChatPart;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConversationsTest {
  @TempDir Path dir;

  @Test
  void saveAndLoad_keepEveryKindOfPart_andTheTakenMessages() throws Exception {
    Conversations conversations = new Conversations(dir);
    Conversation conversation = conversations.create();
    conversation.user(List.of(new ChatPart.Text("hello")), "7");
    conversation.assistant(
        List.of(
            new ChatPart.Thinking("hmm", "sig=="),
            new ChatPart.Text("calling"),
            new ChatPart.ToolCall(
                "toolu_1", "current_time", Json.mapper().readTree("{\"timezone\":\"UTC\"}"))));
    conversation.user(List.of(new ChatPart.ToolOutput("toolu_1", "12:00", false)), null);
    conversations.save(conversation);

    Conversations.Loaded loaded = conversations.load(conversation.id());

    assertThat(loaded.lost()).isFalse();
    assertThat(loaded.conversation().messages()).isEqualTo(conversation.messages());
    assertThat(loaded.conversation().took("7")).isTrue();
    assertThat(loaded.conversation().took("8")).isFalse();
    Path file = dir.resolve(conversation.id() + ".json");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
  }

  @Test
  void user_afterAUserMessage_joinsIt() {
    Conversation conversation = new Conversations(dir).create();
    conversation.user(List.of(new ChatPart.ToolOutput("a", "out", false)), null);
    conversation.user(List.of(new ChatPart.Text("and this")), "3");

    assertThat(conversation.size()).isEqualTo(1);
    assertThat(conversation.messages().get(0).parts()).hasSize(2);
  }

  @Test
  void load_ofAnIdThatIsGoneOrForeign_startsAfreshAndSaysSo() throws Exception {
    Conversations conversations = new Conversations(dir);
    assertThat(conversations.load(null).lost()).isFalse();
    assertThat(conversations.load("api-00000000-0000-0000-0000-000000000000").lost()).isTrue();
    assertThat(conversations.load("../../etc/passwd").lost()).isTrue();
    Files.writeString(dir.resolve("api-11111111-1111-1111-1111-111111111111.json"), "{broken");
    assertThat(conversations.load("api-11111111-1111-1111-1111-111111111111").lost()).isTrue();
  }
}
