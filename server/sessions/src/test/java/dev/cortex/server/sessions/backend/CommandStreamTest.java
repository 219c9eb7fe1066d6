package dev.cortex.server.sessions.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.server.sessions.backend.BackendEvent.Acked;
import dev.cortex.server.sessions.backend.BackendEvent.End;
import dev.cortex.server.sessions.backend.BackendEvent.Handshake;
import dev.cortex.server.sessions.backend.BackendEvent.Note;
import dev.cortex.server.sessions.backend.BackendEvent.Started;
import dev.cortex.server.sessions.backend.BackendEvent.Text;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** How the command protocol's lines read: the first line's handshake, acks, and the rest. */
class CommandStreamTest {
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @Test
  void accept_helloWithAckFirst_acknowledges_andItsAcksAreAcked() {
    CommandStream stream = new CommandStream("s_1");

    assertThat(read(stream, "{\"type\":\"hello\",\"protocol\":2,\"capabilities\":[\"ack\"]}"))
        .containsExactly(new Handshake(true));
    assertThat(read(stream, "{\"type\":\"ack\",\"id\":\"7\"}")).containsExactly(new Acked("7"));
    assertThat(read(stream, "{\"type\":\"ack\",\"id\":8}")).containsExactly(new Acked("8"));
    assertThat(read(stream, "{\"type\":\"ack\"}"))
        .containsExactly(new Note("the backend printed an ack line without an id; ignored"));
    assertThat(read(stream, "{\"type\":\"hello\",\"capabilities\":[\"ack\"]}"))
        .containsExactly(
            new Note("the backend printed a hello line after its first line; ignored"));
  }

  @Test
  void accept_anyOtherFirstLine_doesNotAcknowledge_andIsReadAsUsual() {
    CommandStream plain = new CommandStream("s_1");
    CommandStream helloWithout = new CommandStream("s_1");
    CommandStream garbage = new CommandStream("s_1");

    assertThat(read(plain, "")).isEmpty();
    assertThat(read(plain, "{\"type\":\"session\",\"id\":\"conv-1\"}"))
        .containsExactly(new Handshake(false), new Started("conv-1"));
    assertThat(read(plain, "{\"type\":\"ack\",\"id\":\"1\"}"))
        .containsExactly(
            new Note(
                "the backend acknowledged a message without saying on its first line that it"
                    + " acknowledges; ignored"));
    assertThat(read(helloWithout, "{\"type\":\"hello\",\"capabilities\":[]}"))
        .containsExactly(new Handshake(false));
    assertThat(read(garbage, "not json"))
        .containsExactly(
            new Handshake(false),
            new Note("the backend printed a line that is not JSON: not json"));
    assertThat(read(garbage, "{\"type\":\"text\",\"text\":\"hi\"}"))
        .containsExactly(new Text("hi"));
    assertThat(read(garbage, "{\"type\":\"end\",\"status\":\"completed\",\"result\":\"hi\"}"))
        .containsExactly(End.completed("hi"));
  }

  @Test
  void turnLine_namesTheProtocol_andEachMessageWithItsId() {
    TurnRequest request =
        new TurnRequest(
            "s_1",
            List.of(new TurnRequest.Message("3", "first"), new TurnRequest.Message("4", "second")),
            null,
            null,
            Path.of("/work"),
            Map.of(),
            Path.of("/work/mcp-config.json"),
            false,
            List.of("agent"));

    assertThat(JSON.readTree(CommandBackend.turnLine(request)))
        .isEqualTo(
            JSON.readTree(
                "{\"type\":\"turn\",\"protocol\":2,\"session_id\":\"s_1\","
                    + "\"prompt\":\"first\\n\\nsecond\",\"messages\":[{\"id\":\"3\",\"text\":"
                    + "\"first\"},{\"id\":\"4\",\"text\":\"second\"}],\"resume\":null,"
                    + "\"model\":null,\"mcp_config\":\"/work/mcp-config.json\",\"plugin_servers\":[],"
                    + "\"plugin_skills\":[]}"));
    assertThat(JSON.readTree(CommandBackend.injectLine("5", "more")))
        .isEqualTo(JSON.readTree("{\"type\":\"inject\",\"id\":\"5\",\"text\":\"more\"}"));
  }

  private static List<BackendEvent> read(CommandStream stream, String line) {
    return stream.accept(new Lines.Line(line, false));
  }
}
