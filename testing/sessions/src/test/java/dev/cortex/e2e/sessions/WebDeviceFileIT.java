package dev.cortex.e2e.sessions;

import static dev.cortex.e2e.sessions.SessionServer.call;
import static dev.cortex.e2e.sessions.SessionServer.ofKind;
import static dev.cortex.e2e.sessions.SessionServer.script;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cortex.testing.AgentServer;
import dev.cortex.testing.SessionApi;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * {@code send_file} with {@code device} end to end: a real {@code cortex client}, enrolled with the
 * server, holds the files; a {@code web:} session's scripted agent sends them, and the server reads
 * them through the hub chunk by chunk ({@code read_bytes}). The copy in the session's outputs is
 * the device's file byte for byte; a missing file, a folder, and a device that is not connected are
 * refused with their codes, and nothing is written.
 */
class WebDeviceFileIT {
  @TempDir static Path home;
  @TempDir static Path work;
  @TempDir static Path deviceHome;
  @TempDir static Path onDevice;

  static SessionServer fixture;
  static AgentServer server;
  static SessionApi api;

  @BeforeAll
  static void start() throws Exception {
    fixture =
        SessionServer.start(
            home,
            work,
            null,
            Map.of("CORTEX_TEST_WEB_SESSIONS", "1"),
            "{\"machines\": {\"box1\": {}}}");
    server = fixture.server;
    api = fixture.api;
    String code = server.enrol("box1");
    server.connect(
        "box1", deviceHome, Map.of(), "--enroll", code, "--workdir", onDevice.toString());
  }

  @AfterAll
  static void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @Test
  void sendFile_withDevice_copiesTheDevicesBytesExactly_acrossChunks() throws Exception {
    byte[] content = new byte[3 * 1024 * 1024 + 4099];
    new Random(42).nextBytes(content);
    for (int i = 0; i < content.length; i += 997) {
      content[i] = 0;
    }
    Path blob = Files.write(onDevice.resolve("capture.bin"), content);
    String id =
        fixture.scripted("device-file", Map.of("channel", "web:dev-1")).path("id").asString();

    api.follow(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "send_file",
                        Map.of(
                            "file_path", blob.toString(), "device", "box1", "caption", "raw"))))));

    List<JsonNode> transcript = api.transcriptAll(id);
    JsonNode result = ofKind(transcript, "tool_result").get(0);
    assertThat(result.path("body").path("is_error").asBoolean()).as("%s", result).isFalse();
    Path copy = home.resolve("workspace/outputs").resolve(id).resolve("capture.bin");
    assertThat(Files.readAllBytes(copy)).isEqualTo(content);
    JsonNode file = ofKind(transcript, "attachment").get(0).path("body").path("files").get(0);
    assertThat(file.path("size").asLong()).isEqualTo(content.length);
    assertThat(file.path("media_type").asString()).isEqualTo("application/octet-stream");
  }

  @Test
  void sendFile_withDevice_missingFileFolderOrAbsentDevice_isRefused_andWritesNothing()
      throws Exception {
    Files.writeString(onDevice.resolve("present.txt"), "here");
    String id =
        fixture.scripted("device-refused", Map.of("channel", "web:dev-2")).path("id").asString();

    api.follow(
        id,
        script(
            Map.of(
                "calls",
                List.of(
                    call(
                        "send_file",
                        Map.of(
                            "file_path",
                            onDevice.resolve("missing.bin").toString(),
                            "device",
                            "box1")),
                    call("send_file", Map.of("file_path", onDevice.toString(), "device", "box1")),
                    call(
                        "send_file",
                        Map.of(
                            "files",
                            List.of(
                                Map.of("file_path", onDevice.resolve("present.txt").toString()),
                                Map.of("file_path", onDevice.resolve("gone.txt").toString())),
                            "device",
                            "box1")),
                    call(
                        "send_file",
                        Map.of(
                            "file_path",
                            onDevice.resolve("present.txt").toString(),
                            "device",
                            "nobox"))))));

    List<JsonNode> results = ofKind(api.transcriptAll(id), "tool_result");
    assertThat(results).hasSize(4);
    results.forEach(
        r -> assertThat(r.path("body").path("is_error").asBoolean()).as("%s", r).isTrue());
    assertThat(text(results.get(0))).contains("FILE_UNREADABLE", "missing.bin", "box1");
    assertThat(text(results.get(1))).contains("FILE_UNREADABLE", "directory");
    assertThat(text(results.get(2))).contains("FILE_UNREADABLE", "gone.txt");
    assertThat(text(results.get(3))).contains("DEVICE_OFFLINE", "nobox");
    results.forEach(r -> assertThat(text(r)).doesNotContain("Exception", "at dev.cortex"));
    assertThat(ofKind(api.transcriptAll(id), "attachment")).isEmpty();
    assertThat(filesUnder(home.resolve("workspace/outputs").resolve(id))).isEmpty();
  }

  private static String text(JsonNode result) {
    return result.path("body").path("content").asString();
  }

  private static List<Path> filesUnder(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return List.of();
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).toList();
    }
  }
}
